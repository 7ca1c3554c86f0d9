/**
 * Stripe's webhook, answered by the server entry before SvelteKit. A delivery is a machine's POST that needs none
 * of what SvelteKit adds — no cookie, no page, no route parameter — yet SvelteKit's handling of it (a web Request
 * and Response around the body, the route lookup, the hooks) took more CPU than verifying, recording and applying
 * the event: measured with `npm run bench webhook`, the server spent 1.1–1.3 ms of CPU an event through SvelteKit,
 * 0.45–0.6 ms through here (the README has the throughput).
 *
 * The answer is the app's own: answerStripeEvent (src/lib/server/http/stripe-webhook.ts), which the SvelteKit
 * route gives too, reached through the bridge the app sets at start-up. The headers are the entry's, those every
 * response carries (admitBody has refused a declared body past the route's limit before this runs). What the
 * hooks would have added does not apply: no cookie is read, nothing is cached, a 17-byte body is not compressed.
 *
 * Only what Stripe sends is answered here: a POST of JSON to the exact path. Anything else at that path (a form's
 * content type, which SvelteKit refuses from another site; another method; a trailing slash) goes to SvelteKit as
 * before, and so does every request when the app exposed no webhook (showcase mode).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WEBHOOK_BODY_LIMIT, payloadTooLarge } from '../lib/server/http/body-limits';
import { internalErrorParts, type AnswerParts } from '../lib/server/http/problem';
import {
	STRIPE_WEBHOOK_PATH,
	exposedStripeWebhook,
	type StripeWebhookAnswer
} from '../lib/server/http/stripe-webhook-bridge';
import { log } from '../lib/server/log';

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/** Whether the request is a Stripe delivery this entry answers; if so, it is answered and the caller stops. */
export function answerStripeWebhook(
	req: IncomingMessage,
	res: ServerResponse,
	answer: StripeWebhookAnswer | undefined = exposedStripeWebhook()
): boolean {
	if (!answer || req.method !== 'POST' || !isWebhookUrl(req.url)) return false;
	if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return false;
	respond(req, res, answer).catch((error: unknown) => {
		// Nothing above throws by design; should writing the answer fail, the connection goes, not the process.
		log.error('webhook answer failed', { error });
		res.destroy();
	});
	return true;
}

const isWebhookUrl = (url: string | undefined) =>
	url === STRIPE_WEBHOOK_PATH || !!url?.startsWith(`${STRIPE_WEBHOOK_PATH}?`);

async function respond(req: IncomingMessage, res: ServerResponse, answer: StripeWebhookAnswer) {
	let raw: string | null;
	try {
		raw = await readWhole(req, WEBHOOK_BODY_LIMIT);
	} catch {
		// The client went away before its body ended: nobody is left to answer.
		res.destroy();
		return;
	}
	let reply: AnswerParts;
	if (raw === null) reply = payloadTooLarge(WEBHOOK_BODY_LIMIT);
	else {
		try {
			reply = await answer(raw, signatureOf(req.headers['stripe-signature']));
		} catch (error) {
			// answerStripeEvent turns every error into its answer; this is the guard against its own failure.
			const id = crypto.randomUUID();
			log.error('unhandled webhook error', { id, error });
			reply = internalErrorParts(id);
		}
	}
	if (res.destroyed) return;
	res.writeHead(reply.status, reply.headers);
	res.end(reply.body);
}

/**
 * The body as text, or null as soon as it passes `limit` (what is left is not kept: the answer, written before
 * the body ended, closes the connection — request-bodies.ts). Rejects when the request ends before its body.
 */
function readWhole(req: IncomingMessage, limit: number): Promise<string | null> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const settle = (finish: () => void) => {
			if (settled) return;
			settled = true;
			req.off('data', onData);
			finish();
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) return void chunks.push(chunk);
			chunks.length = 0;
			settle(() => resolve(null));
		};
		req.on('data', onData);
		req.once('end', () => settle(() => resolve(Buffer.concat(chunks, size).toString('utf8'))));
		// Kept after settling: a late error of the request stays handled.
		req.on('error', (error) => settle(() => reject(error)));
		req.once('close', () => {
			if (!req.complete) settle(() => reject(new Error('request closed before its body ended')));
		});
	});
}

/** The Stripe-Signature header as SvelteKit's Headers would give it (repeated: joined), or null. */
function signatureOf(value: string | string[] | undefined): string | null {
	if (value === undefined) return null;
	return Array.isArray(value) ? value.join(', ') : value;
}
