/**
 * Paying for an approved candidature: its payment link (`/paiement/{id}.{HMAC}`, stable for the life of the
 * approval), the Stripe Checkout Session behind it (made at approval, made again when the payer comes back to an
 * expired one), and what the link answers. The rules of deciding a candidature are service.ts'; the webhook that
 * turns a payment into a member is memberships'.
 */
import type Stripe from 'stripe';
import { ServiceUnavailableError } from '../errors';
import { describePaymentError, type Payments } from '../payments';
import { sign, verifySignature } from '../signing';
import * as queries from './queries';
import type { Candidature } from './queries';
import type { CandidatureDeps } from './deps';

/** `/paiement/{id}.{HMAC}`: stable for the life of the approval, unforgeable without SIGNING_SECRET. */
export function paymentLinkOf(deps: Pick<CandidatureDeps, 'signingSecret' | 'origin'>, id: string): string {
	return new URL(`/paiement/${id}.${sign(deps.signingSecret, `payment-link:${id}`)}`, deps.origin).href;
}

export function candidatureIdOfPaymentToken(secret: string, token: string): string | null {
	const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/i.exec(token);
	if (!match) return null;
	const [, id, signature] = match;
	return verifySignature(secret, `payment-link:${id!.toLowerCase()}`, signature!) ? id!.toLowerCase() : null;
}

export const PAYMENTS_OFF_MESSAGE =
	'Paiements désactivés : définissez STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET et STRIPE_PRICE_ID pour créer la session de paiement. Le lien de paiement fonctionnera dès qu’ils le seront.';

/**
 * A Checkout Session for the candidature (CONTRACT §3 / notes/stripe.md): subscription at STRIPE_PRICE_ID, the
 * candidature's id as `client_reference_id` and metadata, in French, one idempotency key per attempt — two
 * requests for the same attempt get the same session.
 */
async function createCheckout(
	deps: CandidatureDeps & { payments: Payments },
	c: Candidature,
	attempt: number
): Promise<Stripe.Checkout.Session> {
	const metadata = { candidatureId: c.id };
	// Not through URL(): Stripe replaces the literal {CHECKOUT_SESSION_ID}, which URL() would percent-encode.
	const successUrl = `${deps.origin.origin}/paiement/merci?session_id={CHECKOUT_SESSION_ID}`;
	return deps.payments.stripe.checkout.sessions.create(
		{
			mode: 'subscription',
			line_items: [{ price: deps.payments.priceId, quantity: 1 }],
			customer_email: c.email,
			client_reference_id: c.id,
			metadata,
			subscription_data: { metadata },
			locale: 'fr',
			success_url: successUrl,
			cancel_url: paymentLinkOf(deps, c.id)
		},
		{ idempotencyKey: `candidature-${c.id}-checkout-${attempt}` }
	);
}

export async function freshCheckout(deps: CandidatureDeps & { payments: Payments }, c: Candidature) {
	const attempt = await queries.nextCheckoutAttempt(deps.db, c.id, c.checkoutAttempt);
	const session = await createCheckout(deps, c, attempt);
	await queries.recordCheckout(deps.db, c.id, attempt, { id: session.id, url: session.url });
	return session;
}

export type CheckoutOutcome =
	{ kind: 'redirect'; url: string } | { kind: 'enrolled' } | { kind: 'payments-off' } | { kind: 'not-found' };

/** A session is reused while it is open and has more than this left (the payer needs time to type a card). */
const MIN_REMAINING_SECONDS = 10 * 60;

/**
 * `GET /paiement/{token}`: where the payer goes. An approved candidature's current session while it is open,
 * else a fresh one; enrolled → already done; anything else (pending, rejected, unknown, tampered) → not found.
 */
export async function checkoutForToken(
	deps: CandidatureDeps,
	token: string,
	now = Date.now()
): Promise<CheckoutOutcome> {
	const id = candidatureIdOfPaymentToken(deps.signingSecret, token);
	const c = id ? await queries.selectCandidature(deps.db, id) : undefined;
	if (!c || c.spam) return { kind: 'not-found' };
	if (c.status === 'enrolled') return { kind: 'enrolled' };
	if (c.status !== 'approved') return { kind: 'not-found' };
	const payments = deps.payments;
	if (!payments) return { kind: 'payments-off' };
	try {
		if (c.checkoutSessionId) {
			const current = await payments.stripe.checkout.sessions.retrieve(c.checkoutSessionId).catch((error) => {
				// A session Stripe no longer knows is one to replace; any other failure is Stripe being down.
				if ((error as { code?: string }).code === 'resource_missing') return null;
				throw error;
			});
			const open =
				current?.status === 'open' &&
				current.url &&
				current.expires_at * 1000 - now > MIN_REMAINING_SECONDS * 1000;
			if (open) return { kind: 'redirect', url: current.url! };
		}
		const session = await freshCheckout({ ...deps, payments }, c);
		if (!session.url) throw new Error('Stripe answered a session without a URL');
		return { kind: 'redirect', url: session.url };
	} catch (error) {
		throw new ServiceUnavailableError(
			`Le paiement est momentanément indisponible (${describePaymentError(error)}). Réessayez dans quelques minutes.`,
			60
		);
	}
}
