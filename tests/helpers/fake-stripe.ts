/**
 * A fake of the Stripe API for the tests (Stripe cannot be reached from here): a real HTTP server that speaks
 * what the official `stripe` client sends — form-encoded bodies with bracketed keys, Bearer keys, idempotency
 * keys (the same key returns the first answer), JSON answers and Stripe's error shape — for the calls the
 * service makes (notes/stripe.md). It records every request so that tests can check what was asked.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	path: string;
	params: Record<string, unknown>;
	idempotencyKey: string | null;
	apiVersion: string | null;
}

export interface FakeSession {
	id: string;
	object: 'checkout.session';
	status: 'open' | 'complete' | 'expired';
	url: string | null;
	expires_at: number;
	created: number;
	mode: string;
	locale: string | null;
	customer_email: string | null;
	client_reference_id: string | null;
	metadata: Record<string, string>;
	success_url: string;
	cancel_url: string | null;
	customer: string | null;
	subscription: string | null;
	payment_status: 'unpaid' | 'paid';
	livemode: false;
}

export interface FakeStripe {
	url: string;
	secretKey: string;
	/** STRIPE_* variables that point the app at this fake. */
	env: Record<string, string>;
	requests: RecordedRequest[];
	sessions: Map<string, FakeSession>;
	/** 'down': every request is answered 500 with Stripe's api_error; 'hang': no answer at all. */
	mode: 'up' | 'down' | 'hang';
	/** Subscriptions cancelled through `DELETE /v1/subscriptions/{id}`. */
	cancelled: string[];
	/** Makes a session expired, as 24 hours would. */
	expire(id: string): void;
	close(): Promise<void>;
}

/** `line_items[0][price]=p` → `{ line_items: [{ price: 'p' }] }`, as Stripe reads its form bodies. */
export function parseStripeForm(body: string): Record<string, unknown> {
	const root: Record<string, unknown> = {};
	for (const [rawKey, value] of new URLSearchParams(body)) {
		const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== '');
		let node: Record<string, unknown> | unknown[] = root;
		parts.forEach((part, i) => {
			const last = i === parts.length - 1;
			const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
			const key = /^\d+$/.test(part) && Array.isArray(node) ? Number(part) : part;
			const container = node as Record<string | number, unknown>;
			if (last) container[key] = value;
			else {
				container[key] ??= nextIsIndex ? [] : {};
				node = container[key] as Record<string, unknown>;
			}
		});
	}
	return root;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export async function startFakeStripe(): Promise<FakeStripe> {
	const secretKey = 'sk_test_fake_' + randomBytes(8).toString('hex');
	const requests: RecordedRequest[] = [];
	const sessions = new Map<string, FakeSession>();
	const idempotent = new Map<string, { status: number; body: unknown }>();
	const cancelled: string[] = [];
	const open = new Set<ServerResponse>();
	let base = '';

	const send = (res: ServerResponse, status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
		res.end(JSON.stringify(body));
	};
	const error = (res: ServerResponse, status: number, type: string, message: string, code?: string) =>
		send(res, status, { error: { type, message, ...(code ? { code } : {}) } });

	function route(req: IncomingMessage, params: Record<string, unknown>): { status: number; body: unknown } {
		const path = (req.url ?? '').split('?')[0]!;
		const now = Math.floor(Date.now() / 1000);
		if (req.method === 'POST' && path === '/v1/checkout/sessions') {
			const session: FakeSession = {
				id: id('cs'),
				object: 'checkout.session',
				status: 'open',
				url: null,
				expires_at: params.expires_at ? Number(params.expires_at) : now + 24 * 3600,
				created: now,
				mode: String(params.mode),
				locale: (params.locale as string) ?? null,
				customer_email: (params.customer_email as string) ?? null,
				client_reference_id: (params.client_reference_id as string) ?? null,
				metadata: (params.metadata as Record<string, string>) ?? {},
				success_url: String(params.success_url),
				cancel_url: (params.cancel_url as string) ?? null,
				customer: null,
				subscription: null,
				payment_status: 'unpaid',
				livemode: false
			};
			session.url = `${base}/c/pay/${session.id}`;
			sessions.set(session.id, session);
			return { status: 200, body: session };
		}
		const session = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path);
		if (session) {
			const found = sessions.get(session[1]!);
			if (!found)
				return {
					status: 404,
					body: {
						error: {
							type: 'invalid_request_error',
							code: 'resource_missing',
							message: `No such checkout.session: '${session[1]}'`
						}
					}
				};
			if (req.method === 'POST' && session[2]) {
				if (found.status !== 'open')
					return {
						status: 400,
						body: { error: { type: 'invalid_request_error', message: 'Only open sessions can be expired.' } }
					};
				found.status = 'expired';
				found.url = null;
			}
			return { status: 200, body: found };
		}
		const subscription = /^\/v1\/subscriptions\/([\w]+)$/.exec(path);
		if (req.method === 'DELETE' && subscription) {
			cancelled.push(subscription[1]!);
			return {
				status: 200,
				body: { id: subscription[1], object: 'subscription', status: 'canceled', canceled_at: now }
			};
		}
		if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
			return {
				status: 200,
				body: {
					id: id('bps'),
					object: 'billing_portal.session',
					customer: params.customer,
					return_url: params.return_url,
					url: `${base}/p/session/${id('bps')}`
				}
			};
		}
		return {
			status: 404,
			body: {
				error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path}).` }
			}
		};
	}

	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const path = (req.url ?? '').split('?')[0]!;
			// The payer's page, for browsers that follow a session's URL.
			if (req.method === 'GET' && path.startsWith('/c/pay/')) {
				const session = sessions.get(path.slice('/c/pay/'.length));
				res.writeHead(session ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
				res.end(
					`<!doctype html><html lang="fr"><title>Fake Checkout</title><h1>Paiement (faux Stripe)</h1><p id="session">${session?.id ?? 'inconnue'}</p></html>`
				);
				return;
			}
			if (fake.mode === 'hang') {
				open.add(res);
				return;
			}
			const body = Buffer.concat(chunks).toString('utf8');
			const query = (req.url ?? '').split('?')[1] ?? '';
			const params = parseStripeForm(req.method === 'GET' ? query : body);
			const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
			requests.push({
				method: req.method ?? '',
				path,
				params,
				idempotencyKey,
				apiVersion: (req.headers['stripe-version'] as string | undefined) ?? null
			});
			if (fake.mode === 'down')
				return error(res, 500, 'api_error', 'An unknown error occurred (the fake is down).');
			if (req.headers.authorization !== `Bearer ${secretKey}`)
				return error(res, 401, 'invalid_request_error', 'Invalid API Key provided.');
			const remembered = idempotencyKey ? idempotent.get(`${path}|${idempotencyKey}`) : undefined;
			if (remembered) return send(res, remembered.status, remembered.body);
			const answer = route(req, params);
			if (idempotencyKey && req.method === 'POST') idempotent.set(`${path}|${idempotencyKey}`, answer);
			send(res, answer.status, answer.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const fake: FakeStripe = {
		url: base,
		secretKey,
		env: {
			STRIPE_SECRET_KEY: secretKey,
			STRIPE_WEBHOOK_SECRET: 'whsec_test_' + randomBytes(16).toString('hex'),
			STRIPE_PRICE_ID: 'price_test_programme',
			STRIPE_API_URL: base
		},
		requests,
		sessions,
		cancelled,
		mode: 'up',
		expire(sessionId) {
			const session = sessions.get(sessionId);
			if (session) {
				session.status = 'expired';
				session.url = null;
			}
		},
		async close() {
			for (const res of open) res.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	};
	return fake;
}
