/**
 * POST /api/payments/webhook called directly (the route-handler template): the raw body is what is verified,
 * answers are problem details, a body over 1 MB is refused before it is read whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import { outboxTransport } from '../../src/lib/server/mail/transport';
import { createPayments } from '../../src/lib/server/payments';
import { POST } from '../../src/routes/api/payments/webhook/+server';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { signEvent, subscriptionEvent } from '../helpers/stripe-events';

let database: TestDatabase;
const webhookSecret = 'whsec_route_test_secret';
const payments = createPayments({
	secretKey: 'sk_test_route',
	webhookSecret,
	priceId: 'price_test',
	apiUrl: new URL('http://127.0.0.1:9')
});

beforeAll(async () => {
	database = await createTestDatabase();
	const outbox = mkdtempSync(path.join(tmpdir(), 'atelier-outbox-'));
	useDepsForTests({
		db: database.db,
		mail: { db: database.db, transport: outboxTransport(outbox), from: 'Atelier <no-reply@atelier.test>' },
		payments
	});
});
afterAll(async () => {
	await settleBackgroundTasks(5_000);
	useDepsForTests(null);
	await database.dispose();
});

async function post(body: BodyInit, headers: Record<string, string>) {
	const request = new Request('http://localhost/api/payments/webhook', { method: 'POST', body, headers });
	const event = { request, url: new URL(request.url), getClientAddress: () => '10.30.0.1' };
	return (POST as unknown as (e: typeof event) => Promise<Response>)(event);
}

describe(`POST /api/payments/webhook, called directly, on ${driverName}`, () => {
	it('200 { received: true } for a signed event, even one that is not ours, and again for its replay', async () => {
		const signed = signEvent(
			subscriptionEvent('customer.subscription.updated', { id: 'sub_route', status: 'active' }),
			webhookSecret
		);
		for (let i = 0; i < 2; i++) {
			const response = await post(signed.payload, {
				'stripe-signature': signed.header,
				'content-type': 'application/json'
			});
			expect(response.status).toBe(200);
			expect(await response.json()).toEqual({ received: true });
		}
	});

	it('400 problem details for a missing or wrong signature', async () => {
		const signed = signEvent(
			subscriptionEvent('customer.subscription.updated', { id: 'sub_x', status: 'active' }),
			'whsec_other'
		);
		for (const headers of [
			{},
			{ 'stripe-signature': signed.header },
			{ 'stripe-signature': 't=1,v1=00' }
		] as Record<string, string>[]) {
			const response = await post(signed.payload, headers);
			expect(response.status).toBe(400);
			expect(response.headers.get('content-type')).toContain('application/problem+json');
			expect((await response.json()).detail).toMatch(/Signature|Stripe-Signature/);
		}
	});

	it('413 past 1 MB, before reading it all', async () => {
		const big = 'x'.repeat(1024 * 1024 + 1);
		const response = await post(big, { 'stripe-signature': 't=1,v1=00' });
		expect(response.status).toBe(413);
	});

	it('503 with payments off', async () => {
		useDepsForTests({ db: database.db, payments: null });
		try {
			const response = await post('{}', { 'stripe-signature': 't=1,v1=00' });
			expect(response.status).toBe(503);
		} finally {
			useDepsForTests({ db: database.db, payments });
		}
	});
});
