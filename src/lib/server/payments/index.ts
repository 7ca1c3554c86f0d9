/**
 * Stripe, through the official client: built once from the configuration, or null when payments are off (any of
 * STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID unset). STRIPE_API_URL points it at another server —
 * the tests' fake. The API version is pinned to the one the installed package ships with.
 */
import Stripe from 'stripe';
import type { StripeConfig } from '../config';

export type { Stripe };

/** What the domains need of Stripe: the client and the price the programme is sold at. */
export interface Payments {
	stripe: Stripe;
	priceId: string;
	webhookSecret: string;
}

export function createPayments(config: StripeConfig | null): Payments | null {
	if (!config) return null;
	const api = config.apiUrl;
	const stripe = new Stripe(config.secretKey, {
		// Calls wait at most 10 s (a visitor or an admin is waiting), and are retried once on a network error:
		// every POST carries an idempotency key, so a retry never does the work twice.
		timeout: 10_000,
		maxNetworkRetries: 1,
		telemetry: false,
		...(api
			? {
					host: api.hostname,
					port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
					protocol: api.protocol === 'https:' ? ('https' as const) : ('http' as const)
				}
			: {})
	});
	return { stripe, priceId: config.priceId, webhookSecret: config.webhookSecret };
}

/** A Stripe failure in words an admin can act on (never the secret key, which Stripe does not echo anyway). */
export function describePaymentError(error: unknown): string {
	if (error instanceof Stripe.errors.StripeConnectionError)
		return 'Stripe ne répond pas (connexion impossible). Le lien de paiement en créera une session plus tard.';
	if (error instanceof Stripe.errors.StripeError) return `Stripe a refusé la demande : ${error.message}`;
	return error instanceof Error ? error.message : String(error);
}
