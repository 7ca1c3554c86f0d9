/**
 * The public POST routes as SvelteKit calls them — route handlers and form actions of src/routes — on the
 * application's own configuration and database (a fresh DATA_DIR, and a fresh database on the server when
 * DATABASE_URL is set). Then the database goes away for real (PGlite closed, the PostgreSQL database dropped)
 * and the same routes must answer 503 with Retry-After, keeping what the visitor typed.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RequestEvent } from '@sveltejs/kit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTROL_CHARACTERS_MESSAGE } from '../../src/lib/schemas/text';
import { contactSchema, devisSchema } from '../../src/lib/schemas/leads';
import { database } from '../../src/lib/server/db';
import { leads } from '../../src/lib/server/db/schema';
import { OUTAGE_RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE_MESSAGE } from '../../src/lib/server/errors';
import { issueFormToken } from '../../src/lib/server/leads/form-token';
import { SMTP_TIMEOUTS } from '../../src/lib/server/mail/transport';
import * as contactApi from '../../src/routes/api/contact/+server';
import * as devisApi from '../../src/routes/api/devis/+server';
import * as setupApi from '../../src/routes/api/admin/setup/+server';
import * as contactPage from '../../src/routes/(marketing)/contact/+page.server';
import * as devisPage from '../../src/routes/(marketing)/devis/+page.server';
import * as loginPage from '../../src/routes/(auth)/login/+page.server';
import * as registerPage from '../../src/routes/(auth)/register/+page.server';
import * as setupPage from '../../src/routes/(auth)/setup-admin/+page.server';
import { createEmptyPostgresDatabase, driverName, serverUrl } from '../helpers/database';

const ORIGIN = 'http://atelier.test';
const SECRET = 's'.repeat(40);
const PASSWORD = 'une phrase de passe solide';

let dropDatabase: (() => Promise<void>) | null = null;
/** An "SMTP server" that accepts connections and never says a word. */
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
	silent = createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => {});
	});
	await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
	// Read by the application's configuration on first use, i.e. by the first route called below.
	process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'atelier-routes-'));
	process.env.ORIGIN = ORIGIN;
	process.env.SIGNING_SECRET = SECRET;
	process.env.ADMIN_EMAIL = 'patron@atelier.test';
	process.env.SMTP_URL = `smtp://127.0.0.1:${(silent.address() as { port: number }).port}`;
	delete process.env.DATABASE_URL;
	if (serverUrl) {
		const created = await createEmptyPostgresDatabase();
		process.env.DATABASE_URL = created.url;
		dropDatabase = created.drop;
	}
	await database.migrate();
});

afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => silent.close(resolve));
	await database.close();
	await dropDatabase?.();
});

let lastAddress = 0;
/** A POST as SvelteKit hands it to a route, from an address of its own (so that rate limits stay out of the way). */
function post(route: string, body: { json?: unknown; form?: Record<string, string> }) {
	const url = new URL(route, ORIGIN);
	const headers: Record<string, string> = {};
	const request = new Request(url, {
		method: 'POST',
		headers:
			body.json !== undefined
				? { 'content-type': 'application/json' }
				: { 'content-type': 'application/x-www-form-urlencoded' },
		body: body.json !== undefined ? JSON.stringify(body.json) : new URLSearchParams(body.form)
	});
	const address = `10.1.${Math.floor(++lastAddress / 250)}.${lastAddress % 250}`;
	const event = {
		request,
		url,
		params: {},
		route: { id: route },
		locals: { user: null, session: null },
		getClientAddress: () => address,
		setHeaders: (values: Record<string, string>) => Object.assign(headers, values),
		cookies: { get: () => undefined, getAll: () => [], set() {}, delete() {}, serialize: () => '' },
		isDataRequest: false,
		isSubRequest: false
	} as unknown as RequestEvent;
	return { event, headers };
}

type Handler = (event: RequestEvent) => Promise<Response>;
const callApi = (handler: unknown, route: string, json: unknown) =>
	(handler as Handler)(post(route, { json }).event);

interface FormResult {
	status?: number;
	data?: {
		form: {
			valid: boolean;
			data: Record<string, unknown>;
			errors: Record<string, string[]>;
			message?: { text: string };
		};
	};
}
type Action = (event: RequestEvent) => Promise<FormResult>;
async function callAction(actions: unknown, route: string, form: Record<string, string>) {
	const { event, headers } = post(route, { form });
	const result = await (actions as { default: Action }).default(event);
	return { result, headers };
}

/** A form token shown long enough ago for a person to have typed the form. */
const typedToken = () => issueFormToken(SECRET, Date.now() - 5000 - ++lastAddress);

const contact = {
	name: 'Anne Martin',
	email: 'anne@exemple.fr',
	phone: '06 12 34 56 78',
	company: 'Martin SARL',
	message: 'Bonjour, je voudrais un audit de mon site.',
	website: '',
	formToken: ''
};
const devis = {
	name: 'Jean Dupont',
	email: 'jean@exemple.fr',
	phone: '06 12 34 56 78',
	city: 'Anse',
	projectType: 'mur',
	message: 'Un mur de clôture en pierre dorée.',
	website: '',
	formToken: ''
};
const account = { name: 'Marie Curie', email: 'marie@exemple.fr', password: PASSWORD };

describe(`public routes on ${driverName}`, () => {
	const apis = [
		['contact', contactApi.POST, contact, contactSchema],
		['devis', devisApi.POST, devis, devisSchema]
	] as const;
	for (const [kind, handler, valid, schema] of apis) {
		it.each(Object.keys(schema.shape).filter((f) => f !== 'projectType'))(
			`POST /api/${kind}: a NUL byte in %s is a 400 naming that field`,
			async (field) => {
				const body = {
					...valid,
					formToken: typedToken(),
					[field]: `${valid[field as keyof typeof valid]}\u0000`
				};
				const response = await callApi(handler, `/api/${kind}`, body);
				expect(response.status).toBe(400);
				const problem = await response.json();
				expect(problem.errors).toEqual({ [field]: [CONTROL_CHARACTERS_MESSAGE] });
			}
		);
	}

	it.each([
		['/login', loginPage.actions, { email: 'marie@exemple.fr\u0000', password: PASSWORD }, 'email'],
		['/login', loginPage.actions, { email: 'marie@exemple.fr', password: `${PASSWORD}\u0000` }, 'password'],
		['/register', registerPage.actions, { ...account, name: 'Marie\u0000' }, 'name'],
		['/register', registerPage.actions, { ...account, email: '\u0000marie@exemple.fr' }, 'email'],
		['/setup-admin', setupPage.actions, { ...account, name: 'Marie\u0000' }, 'name']
	])(
		'the %s form refuses a NUL byte with a French error under the field',
		async (route, actions, form, field) => {
			const { result } = await callAction(actions, route, form);
			expect(result.status).toBe(400);
			expect(result.data!.form.errors[field]).toEqual([CONTROL_CHARACTERS_MESSAGE]);
		}
	);

	it('answers POST /api/contact at once while SMTP accepts and never answers; the failure is recorded later', async () => {
		const started = Date.now();
		const response = await callApi(contactApi.POST, '/api/contact', { ...contact, formToken: typedToken() });
		const elapsed = Date.now() - started;
		expect(response.status).toBe(201);
		const { id } = await response.json();
		// The answer did not wait for the e-mail: it is still waiting for a greeting that never comes.
		expect(elapsed).toBeLessThan(SMTP_TIMEOUTS.greetingMs);
		const [stored] = await database.db.select().from(leads).where(eq(leads.id, id));
		expect(stored).toMatchObject({ spam: false, notifyError: null });

		const deadline = Date.now() + 4 * SMTP_TIMEOUTS.greetingMs;
		let notifyError: string | null = null;
		while (notifyError === null && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 100));
			[{ notifyError }] = (await database.db
				.select({ notifyError: leads.notifyError })
				.from(leads)
				.where(eq(leads.id, id))) as [{ notifyError: string | null }];
		}
		expect(notifyError).toMatch(/greeting|timeout/i);
	});

	it('keeps a forced database error’s parameters and the password out of the log', async () => {
		// Any insert into users now fails inside PostgreSQL, with the SQL parameters in Drizzle's error.
		await database.db.execute(sql`alter table users add constraint forced_failure check (false) not valid`);
		const lines: string[] = [];
		const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
		try {
			const secretName = 'Zéphyrin Secretname';
			const response = await callApi(setupApi.POST, '/api/admin/setup', {
				name: secretName,
				email: 'zephyrin.secret@exemple.fr',
				password: PASSWORD
			});
			expect(response.status).toBe(500);
			expect(lines.length).toBeGreaterThan(0);
			const logged = lines.join('\n');
			expect(logged).toContain('unhandled API error');
			expect(logged).toContain('23514');
			for (const secret of [PASSWORD, '$argon2', 'argon2id', 'zephyrin', 'Secretname', 'insert into'])
				expect(logged.toLowerCase()).not.toContain(secret.toLowerCase());
		} finally {
			spy.mockRestore();
			await database.db.execute(sql`alter table users drop constraint forced_failure`);
		}
	});

	describe('with the database gone', () => {
		beforeAll(async () => {
			if (dropDatabase) {
				await dropDatabase();
				dropDatabase = null;
			} else {
				await database.close();
			}
		});

		it.each([
			['/api/contact', contactApi.POST, () => ({ ...contact, formToken: typedToken() })],
			['/api/devis', devisApi.POST, () => ({ ...devis, formToken: typedToken() })],
			['/api/admin/setup', setupApi.POST, () => account]
		])('%s answers 503 problem details with Retry-After', async (route, handler, body) => {
			const response = await callApi(handler, route, body());
			expect(response.status).toBe(503);
			expect(response.headers.get('retry-after')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
			expect(response.headers.get('content-type')).toContain('application/problem+json');
			expect((await response.json()).detail).toBe(SERVICE_UNAVAILABLE_MESSAGE);
		});

		it.each([
			[
				'/contact',
				contactPage.actions,
				() => ({ ...contact, formToken: typedToken() }),
				['name', 'email', 'message', 'company']
			],
			[
				'/devis',
				devisPage.actions,
				() => ({ ...devis, formToken: typedToken() }),
				['name', 'phone', 'city', 'message']
			],
			['/login', loginPage.actions, () => ({ email: account.email, password: PASSWORD }), ['email']],
			['/register', registerPage.actions, () => account, ['name', 'email']],
			['/setup-admin', setupPage.actions, () => account, ['name', 'email']]
		])(
			'the %s form answers 503 with Retry-After and keeps what was typed',
			async (route, actions, values, kept) => {
				const typed = values() as Record<string, string>;
				const { result, headers } = await callAction(actions, route, typed);
				expect(result.status).toBe(503);
				expect(headers['retry-after']).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
				expect(result.data!.form.message?.text).toBe(SERVICE_UNAVAILABLE_MESSAGE);
				for (const field of kept) expect(result.data!.form.data[field]).toBe(typed[field]);
				// A password is never sent back into a page.
				if ('password' in typed) expect(result.data!.form.data.password).toBe('');
			}
		);

		it('the sign-in and setup pages still render (their load runs again after the failed action)', async () => {
			const { event } = post('/login', { form: {} });
			const login = await (
				loginPage.load as unknown as (e: RequestEvent) => Promise<{ needsSetup: boolean }>
			)(event);
			expect(login.needsSetup).toBe(false);
			const setup = await (
				setupPage.load as unknown as (e: RequestEvent) => Promise<{ configured: boolean }>
			)(event);
			expect(setup.configured).toBe(false);
		});
	});
});
