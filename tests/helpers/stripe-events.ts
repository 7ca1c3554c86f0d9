/**
 * Stripe events as Stripe sends them (notes/stripe.md: API 2025-03-31 and later shapes), signed with the official
 * package's test-header helper, for the webhook's tests and benchmark.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

const signer = new Stripe('sk_test_signer');
let sequence = 0;
const id = (prefix: string) => `${prefix}_test_${randomBytes(10).toString('hex')}${sequence++}`;

export interface SignedEvent {
	payload: string;
	header: string;
	id: string;
}

export function signEvent(
	event: Record<string, unknown>,
	secret: string,
	timestamp = Math.floor(Date.now() / 1000)
): SignedEvent {
	const payload = JSON.stringify(event);
	return {
		payload,
		header: signer.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
		id: String(event.id)
	};
}

const envelope = (type: string, object: Record<string, unknown>, created: number) => ({
	id: id('evt'),
	object: 'event',
	type,
	created,
	livemode: false,
	api_version: Stripe.API_VERSION,
	pending_webhooks: 1,
	request: { id: null, idempotency_key: null },
	data: { object }
});

export function checkoutCompleted(o: {
	candidatureId: string;
	email: string;
	subscription?: string;
	customer?: string;
	mode?: string;
	created?: number;
}) {
	const created = o.created ?? Math.floor(Date.now() / 1000);
	return envelope(
		'checkout.session.completed',
		{
			id: id('cs'),
			object: 'checkout.session',
			mode: o.mode ?? 'subscription',
			status: 'complete',
			payment_status: 'paid',
			client_reference_id: o.candidatureId,
			metadata: { candidatureId: o.candidatureId },
			customer: o.customer ?? 'cus_test_1',
			customer_details: { email: o.email },
			subscription: o.subscription ?? 'sub_test_1'
		},
		created
	);
}

export function subscriptionEvent(
	type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
	o: {
		id: string;
		status: string;
		candidatureId?: string;
		periodEnd?: number;
		created?: number;
		customer?: string;
	}
) {
	const created = o.created ?? Math.floor(Date.now() / 1000);
	return envelope(
		type,
		{
			id: o.id,
			object: 'subscription',
			status: o.status,
			customer: o.customer ?? 'cus_test_1',
			metadata: o.candidatureId ? { candidatureId: o.candidatureId } : {},
			items: {
				object: 'list',
				data: [
					{
						id: id('si'),
						object: 'subscription_item',
						current_period_end: o.periodEnd ?? created + 30 * 86400
					}
				]
			}
		},
		created
	);
}

export function invoiceEvent(
	type: 'invoice.paid' | 'invoice.payment_failed',
	o: { subscription: string; candidatureId?: string; periodEnd?: number; created?: number }
) {
	const created = o.created ?? Math.floor(Date.now() / 1000);
	return envelope(
		type,
		{
			id: id('in'),
			object: 'invoice',
			customer: 'cus_test_1',
			status: type === 'invoice.paid' ? 'paid' : 'open',
			parent: {
				type: 'subscription_details',
				subscription_details: {
					subscription: o.subscription,
					metadata: o.candidatureId ? { candidatureId: o.candidatureId } : {}
				}
			},
			lines: {
				object: 'list',
				data: [{ id: id('il'), period: { start: created, end: o.periodEnd ?? created + 30 * 86400 } }]
			}
		},
		created
	);
}
