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
import { decodedSegment, readBody, type OwnPath } from './own-paths';

/** The form a one-click POST is: a few bytes. More is not one. */
const MAX_BODY_BYTES = 1024;

/** The own path (own-paths.ts) for `answer`, the app's, or the one the app exposed at start-up. */
export function oneClickUnsubscribe(
	answer: () => UnsubscribeAnswer | undefined = exposedUnsubscribe
): OwnPath {
	return (req, res) => {
		const unsubscribe = answer();
		if (!unsubscribe || req.method !== 'POST') return false;
		const path = (req.url ?? '').split('?')[0]!;
		if (!path.startsWith(UNSUBSCRIBE_PREFIX)) return false;
		return respond(req, res, unsubscribe, path.slice(UNSUBSCRIBE_PREFIX.length));
	};
}

async function respond(
	req: IncomingMessage,
	res: ServerResponse,
	answer: UnsubscribeAnswer,
	segment: string
) {
	const reply = (status: number, text: string) => {
		res.statusCode = status;
		res.setHeader('content-type', 'text/plain; charset=utf-8');
		res.setHeader('cache-control', 'no-store');
		res.end(text);
	};
	const body = await readBody(req, MAX_BODY_BYTES);
	if (body === null) return reply(413, 'Requête trop longue.');
	// A broken escape (`%E0%A4%A`) names no token: no such link.
	const token = decodedSegment(segment);
	if (token === null) return reply(404, 'Lien de désinscription inconnu.');
	let done: boolean;
	try {
		done = await answer(token);
	} catch (error) {
		log.error('one-click unsubscribe failed', { error });
		return reply(503, 'Réessayez dans un instant.');
	}
	if (done) reply(200, 'Vous ne recevrez plus de rappels.');
	else reply(404, 'Lien de désinscription inconnu.');
}
