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
import { readBody, type OwnPath } from './own-paths';

const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/** The own path (own-paths.ts) for `answer`, the app's, or the one the app exposed at start-up. */
export function stripeWebhook(answer: () => StripeWebhookAnswer | undefined = exposedStripeWebhook): OwnPath {
	return (req, res) => {
		const answerEvent = answer();
		if (!answerEvent || req.method !== 'POST' || !isWebhookUrl(req.url)) return false;
		if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return false;
		return respond(req, res, answerEvent);
	};
}

const isWebhookUrl = (url: string | undefined) =>
	url === STRIPE_WEBHOOK_PATH || !!url?.startsWith(`${STRIPE_WEBHOOK_PATH}?`);

async function respond(req: IncomingMessage, res: ServerResponse, answer: StripeWebhookAnswer) {
	const raw = await readBody(req, WEBHOOK_BODY_LIMIT);
	let reply: AnswerParts;
	if (raw === null) reply = payloadTooLarge(WEBHOOK_BODY_LIMIT);
	else {
		try {
			reply = await answer(raw.toString('utf8'), signatureOf(req.headers['stripe-signature']));
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

/** The Stripe-Signature header as SvelteKit's Headers would give it (repeated: joined), or null. */
function signatureOf(value: string | string[] | undefined): string | null {
	if (value === undefined) return null;
	return Array.isArray(value) ? value.join(', ') : value;
}
