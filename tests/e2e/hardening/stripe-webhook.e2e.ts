/**
 * Stripe's webhook as the production server answers it: the entry takes Stripe's deliveries before SvelteKit
 * (src/server/stripe-webhook.ts), over real sockets against the built server. The answer is the app's (verified,
 * applied once, problem details otherwise) with every header a response carries; hostile bodies (too large,
 * chunked, cut, NUL bytes) are refused without hurting the server; what is not a Stripe delivery still goes to
 * SvelteKit.
 */
import { expect, test } from '../support/fixtures';
import { RawConnection, requestHead, type RawResponse } from '../support/raw-http';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe';
import { signEvent, subscriptionEvent } from '../../helpers/stripe-events';

test.describe.configure({ mode: 'serial' });

const PATH = '/api/payments/webhook';
const MB = 1024 * 1024;
let server: RunningServer;
let stripe: FakeStripe;
let base: string;
let secret: string;

test.beforeAll(async () => {
	stripe = await startFakeStripe();
	server = await startIsolatedServer({ ...stripe.env });
	base = server.url;
	secret = stripe.env.STRIPE_WEBHOOK_SECRET!;
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await stripe.close();
});

const signed = (subscription: string) =>
	signEvent(
		subscriptionEvent('customer.subscription.updated', { id: subscription, status: 'active' }),
		secret
	);

/** Sends one request on a new connection and returns the connection and its answer. */
async function send(headers: Record<string, string>, body: Buffer | string, { chunked = false } = {}) {
	const bytes = Buffer.from(body);
	const connection = await RawConnection.open(base);
	const head = chunked
		? { ...headers, 'Transfer-Encoding': 'chunked' }
		: { ...headers, 'Content-Length': String(bytes.length) };
	connection.write(requestHead('POST', PATH, base, head));
	if (chunked) connection.writeChunked(bytes);
	else connection.write(bytes);
	return { connection, response: await connection.response() };
}

function problemOf(response: RawResponse) {
	expect(response.headers['content-type']).toContain('application/problem+json');
	return JSON.parse(response.body.toString('utf8')) as { status: number; detail: string };
}

async function expectServerAnswers() {
	expect((await fetch(`${base}/healthz`)).status).toBe(200);
}

/** The outcomes the server logged for one event id, in order. */
const outcomesOf = (id: string) =>
	server
		.output()
		.split('\n')
		.filter((line) => line.includes('"stripe event"') && line.includes(id))
		.map((line) => (JSON.parse(line) as { outcome: string }).outcome);

test('a signed delivery: 200 { received: true }, with the headers of every response, on a connection kept open', async () => {
	const event = signed('sub_entry_one');
	const { connection, response } = await send(
		{ 'Content-Type': 'application/json', 'Stripe-Signature': event.header },
		event.payload
	);
	expect(response.status).toBe(200);
	expect(JSON.parse(response.body.toString('utf8'))).toEqual({ received: true });
	expect(response.headers['content-type']).toBe('application/json');
	expect(response.headers['content-length']).toBe(String(response.body.length));
	expect(response.headers['x-content-type-options']).toBe('nosniff');
	expect(response.headers['content-security-policy']).toContain("default-src 'self'");
	expect(response.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
	expect(response.headers.connection).not.toBe('close');
	// The same connection answers the next request.
	connection.write(requestHead('GET', '/healthz', base, {}));
	expect((await connection.response()).status).toBe(200);
	connection.destroy();
	// Logged under the route's name, like any request SvelteKit answers.
	await expect.poll(() => server.output().includes(`"route":"${PATH}"`), { timeout: 5_000 }).toBe(true);
});

test('as Stripe sends it: JSON with a charset, to the address with a query string', async () => {
	const event = signed('sub_entry_charset');
	const response = await fetch(`${base}${PATH}?source=stripe`, {
		method: 'POST',
		headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.header },
		body: event.payload
	});
	expect(response.status).toBe(200);
	expect(await response.json()).toEqual({ received: true });
	await expect.poll(() => outcomesOf(event.id), { timeout: 5_000 }).toEqual(['ignored']);
});

test('ten deliveries of one event at once: all answered 200, applied once', async () => {
	const event = signed('sub_entry_ten');
	const answers = await Promise.all(
		Array.from({ length: 10 }, () =>
			fetch(`${base}${PATH}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
				body: event.payload
			})
		)
	);
	expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
	await expect.poll(() => outcomesOf(event.id).length, { timeout: 5_000 }).toBe(10);
	const outcomes = outcomesOf(event.id);
	// Not our subscription: recorded as ignored once; the nine others found it recorded.
	expect(outcomes.filter((o) => o !== 'duplicate')).toEqual(['ignored']);
});

test('a wrong, missing or forged signature: 400 problem details, nothing recorded', async () => {
	const event = signed('sub_entry_forged');
	const other = signEvent(JSON.parse(event.payload), 'whsec_not_ours');
	for (const signature of [other.header, 't=1,v1=00', null]) {
		const { connection, response } = await send(
			{
				'Content-Type': 'application/json',
				...(signature === null ? {} : { 'Stripe-Signature': signature })
			},
			event.payload
		);
		expect(response.status).toBe(400);
		expect(problemOf(response).detail).toMatch(/Signature|Stripe-Signature/);
		connection.destroy();
	}
	// A body of NUL bytes, signed or not, is one more wrong signature.
	const nul = Buffer.alloc(2048, 0);
	const { response } = await send(
		{ 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' },
		nul
	);
	expect(response.status).toBe(400);
	expect(outcomesOf(event.id)).toEqual([]);
	await expectServerAnswers();
});

test('a chunked body past 1 MB: 413, the connection closed, the server unharmed', async () => {
	const { connection, response } = await send(
		{ 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' },
		Buffer.alloc(2 * MB, 'x'),
		{ chunked: true }
	);
	expect(response.status).toBe(413);
	expect(response.headers.connection).toBe('close');
	expect(problemOf(response).detail).toContain('1 Mo');
	expect(await connection.closesWithin(5_000)).toBe(true);
	await expectServerAnswers();
});

test('a body declared past 1 MB: 413 before it is read', async () => {
	const connection = await RawConnection.open(base);
	connection.write(
		requestHead('POST', PATH, base, {
			'Content-Type': 'application/json',
			'Content-Length': String(2 * MB),
			'Stripe-Signature': 't=1,v1=00'
		})
	);
	const response = await connection.response();
	expect(response.status).toBe(413);
	connection.destroy();
	await expectServerAnswers();
});

test('a delivery cut before its body ends: nothing answered, nothing applied, the server unharmed', async () => {
	const event = signed('sub_entry_cut');
	for (const chunked of [false, true]) {
		const connection = await RawConnection.open(base);
		const length: Record<string, string> = chunked
			? { 'Transfer-Encoding': 'chunked' }
			: { 'Content-Length': '100000' };
		connection.write(
			requestHead('POST', PATH, base, {
				'Content-Type': 'application/json',
				'Stripe-Signature': event.header,
				...length
			})
		);
		const half = event.payload.slice(0, event.payload.length / 2);
		connection.write(chunked ? `${Buffer.byteLength(half).toString(16)}\r\n${half}\r\n` : half);
		await new Promise((resolve) => setTimeout(resolve, 100));
		connection.destroy();
	}
	await expectServerAnswers();
	expect(outcomesOf(event.id)).toEqual([]);
	// The whole event, sent afterwards, is applied.
	const whole = await send(
		{ 'Content-Type': 'application/json', 'Stripe-Signature': event.header },
		event.payload
	);
	expect(whole.response.status).toBe(200);
	whole.connection.destroy();
});

test('what is not a Stripe delivery goes to SvelteKit: a cross-site form post is refused, another method too', async () => {
	const event = signed('sub_entry_form');
	const form = await send(
		{ 'Content-Type': 'text/plain', Origin: 'https://ailleurs.example', 'Stripe-Signature': event.header },
		event.payload
	);
	// SvelteKit's own refusal of a cross-site form, which the entry leaves to it.
	expect(form.response.status).toBe(403);
	form.connection.destroy();
	const get = await fetch(`${base}${PATH}`);
	expect(get.status).toBe(405);
	expect(outcomesOf(event.id)).toEqual([]);
});

test('showcase mode has no webhook: the path is answered 404 as any route of the other mode', async () => {
	const showcase = await startIsolatedServer({ ...stripe.env, SITE_MODE: 'showcase' });
	try {
		const event = signed('sub_entry_showcase');
		const response = await fetch(`${showcase.url}${PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
			body: event.payload
		});
		expect(response.status).toBe(404);
		expect(response.headers.get('content-type')).toContain('application/problem+json');
		expect(showcase.output()).not.toContain(event.id);
	} finally {
		expect(await showcase.stop()).toBe(0);
	}
});
