import { json } from '@sveltejs/kit';
import { WEBHOOK_BODY_LIMIT } from '$lib/server/http/body-limits';
import { api, readBodyText } from '$lib/server/http/api';
import * as memberships from '$lib/server/memberships';

/**
 * CONTRACT §3: Stripe's events. The raw body is read (≤ 1 MB) before anything parses it — the signature is over
 * those bytes — then verified and applied once; 200 `{ received: true }` once its effects are committed.
 */
export const POST = api(async (event) => {
	const raw = await readBodyText(event.request, WEBHOOK_BODY_LIMIT);
	await memberships.receiveWebhook(raw, event.request.headers.get('stripe-signature'));
	return json({ received: true });
});
