import { WEBHOOK_BODY_LIMIT } from '$lib/server/http/body-limits';
import { api, readBodyText } from '$lib/server/http/api';
import { answerStripeEvent } from '$lib/server/http/stripe-webhook';

/**
 * CONTRACT §3: Stripe's events. The raw body is read (≤ 1 MB) before anything parses it — the signature is over
 * those bytes — then verified and applied once; 200 `{ received: true }` once its effects are committed.
 * In production the server entry answers this path itself, with the same answerStripeEvent
 * (src/server/stripe-webhook.ts); this route serves `vite dev` and what the entry leaves to SvelteKit.
 */
export const POST = api(async (event) => {
	const raw = await readBodyText(event.request, WEBHOOK_BODY_LIMIT);
	const answer = await answerStripeEvent(raw, event.request.headers.get('stripe-signature'));
	return new Response(answer.body, answer);
});
