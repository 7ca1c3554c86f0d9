/**
 * The reminders' one-click unsubscribe (RFC 8058), answered by the server entry: a mail provider POSTs
 * `List-Unsubscribe=One-Click` to the link the e-mail's List-Unsubscribe header gives, from its own servers and
 * without an Origin header, which SvelteKit's cross-site form check refuses (unsubscribe-bridge.ts). Only a POST to
 * `/rappels/{token}` is answered here; a person's GET (the page with its button) goes to SvelteKit. The body is read
 * to its end (a kept-alive connection must not keep it) and not needed: the token says whose reminders stop.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
	UNSUBSCRIBE_PREFIX,
	exposedUnsubscribe,
	type UnsubscribeAnswer
} from '../lib/server/http/unsubscribe-bridge';
import { log } from '../lib/server/log';

/** The form a one-click POST is: a few bytes. More is not one. */
const MAX_BODY_BYTES = 1024;

export function answerOneClickUnsubscribe(
	req: IncomingMessage,
	res: ServerResponse,
	answer: UnsubscribeAnswer | undefined = exposedUnsubscribe()
): boolean {
	if (!answer || req.method !== 'POST') return false;
	const path = (req.url ?? '').split('?')[0]!;
	if (!path.startsWith(UNSUBSCRIBE_PREFIX)) return false;
	const token = path.slice(UNSUBSCRIBE_PREFIX.length);
	let size = 0;
	let tooLarge = false;
	req.on('data', (chunk: Buffer) => {
		size += chunk.length;
		tooLarge ||= size > MAX_BODY_BYTES;
	});
	req.on('error', () => res.destroy());
	req.on('end', () => {
		const reply = (status: number, text: string) => {
			res.statusCode = status;
			res.setHeader('content-type', 'text/plain; charset=utf-8');
			res.setHeader('cache-control', 'no-store');
			res.end(text);
		};
		if (tooLarge) return reply(413, 'Requête trop longue.');
		answer(decodeURIComponent(token))
			.then((done) =>
				done ? reply(200, 'Vous ne recevrez plus de rappels.') : reply(404, 'Lien de désinscription inconnu.')
			)
			.catch((error: unknown) => {
				log.error('one-click unsubscribe failed', { error });
				reply(503, 'Réessayez dans un instant.');
			});
	});
	return true;
}
