/**
 * Stripe's webhook (CONTRACT §3), answered the same way whichever way the request came in: through the SvelteKit
 * route (`vite dev`, the route's tests) or, in production, through the server entry before SvelteKit
 * (src/server/stripe-webhook.ts). The event is verified and applied once; 200 `{ received: true }` once its effects
 * are committed, problem details otherwise.
 */
import * as memberships from '../memberships';
import { recordStripeEvent } from '../metrics';
import { problemPartsFor } from './api';
import type { AnswerParts } from './problem';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook-bridge';

const RECEIVED_BODY = JSON.stringify({ received: true });
const RECEIVED: AnswerParts = {
	status: 200,
	headers: { 'content-type': 'application/json', 'content-length': String(RECEIVED_BODY.length) },
	body: RECEIVED_BODY
};

export async function answerStripeEvent(raw: string, signature: string | null): Promise<AnswerParts> {
	try {
		recordStripeEvent(await memberships.receiveWebhook(raw, signature));
		return RECEIVED;
	} catch (error) {
		const problem = problemPartsFor(error, { method: 'POST', path: STRIPE_WEBHOOK_PATH });
		// A client's mistake (no or a wrong signature) is refused; the rest (payments off, the database down) failed.
		recordStripeEvent(problem.status < 500 ? 'refused' : 'failed');
		return problem;
	}
}
