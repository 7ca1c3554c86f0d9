/**
 * How the production server entry reaches the Stripe webhook's handling, which lives in the app (the entry answers
 * the webhook before SvelteKit: src/server/stripe-webhook.ts says why). At start-up the app puts its answering
 * function here (`exposeStripeWebhook`, from the init hook, in the modes that have the route); the entry reads it.
 * Nothing of the app is imported here: the entry is bundled on its own, and a second copy of the database
 * module in it would be a second database.
 */

import { processWide } from '../../process-wide';
import type { AnswerParts } from './problem';

export const STRIPE_WEBHOOK_PATH = '/api/payments/webhook';

/** Answers one delivery: the raw body (what the signature covers) and its Stripe-Signature header. */
export type StripeWebhookAnswer = (raw: string, signature: string | null) => Promise<AnswerParts>;

const shared = processWide<StripeWebhookAnswer>('stripe-webhook');

export function exposeStripeWebhook(answer: StripeWebhookAnswer): void {
	shared.set(answer);
}

/** The app's answering function, or nothing when the app has not exposed it (this mode has no webhook). */
export const exposedStripeWebhook = (): StripeWebhookAnswer | undefined => shared.get();
