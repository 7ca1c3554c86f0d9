/**
 * The request log (issue "Self-hosting, part 2", point 5): one line per request with method, route, status,
 * duration and id — never the query string nor anything the visitor sent —, the id in X-Request-Id and on the
 * error page; LOG_LEVEL chooses what is written.
 */
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { startIsolatedServer, startServer, type RunningServer } from '../support/server';

interface Line {
	level: string;
	message: string;
	method?: string;
	route?: string;
	status?: number;
	ms?: number;
	id?: string;
}

const linesOf = (server: RunningServer): Line[] =>
	server
		.output()
		.split('\n')
		.filter((line) => line.startsWith('{'))
		.map((line) => JSON.parse(line) as Line);

const requestLine = async (server: RunningServer, id: string) => {
	await expect.poll(() => linesOf(server).find((l) => l.message === 'request' && l.id === id)).toBeTruthy();
	return linesOf(server).find((l) => l.message === 'request' && l.id === id)!;
};

test('each request has one line: its route, status, duration and id, and nothing the visitor sent', async () => {
	const server = await startIsolatedServer();
	try {
		const secret = 'jeton-secret-0123456789';
		const login = await fetch(`${server.url}/mot-de-passe/${secret}?token=${secret}`);
		const id = login.headers.get('x-request-id')!;
		expect(id).toMatch(/^[0-9a-f-]{36}$/);
		expect(await requestLine(server, id)).toMatchObject({
			level: 'info',
			method: 'GET',
			route: '/(auth)/mot-de-passe/[token]',
			status: 200,
			id
		});

		const email = 'visiteuse.unique@exemple.fr';
		const lead = await fetch(`${server.url}/api/contact`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				name: 'Visiteuse',
				email,
				message: 'Un message que le journal ne doit pas garder.'
			})
		});
		expect(lead.status).toBe(201);
		expect(await requestLine(server, lead.headers.get('x-request-id')!)).toMatchObject({
			method: 'POST',
			route: '/api/contact',
			status: 201
		});

		const missing = await fetch(`${server.url}/pas/de/page/ici`);
		expect((await requestLine(server, missing.headers.get('x-request-id')!)).status).toBe(404);

		// A proxy's own id is kept, so that its log and ours share it; a malformed one is replaced.
		const proxied = await fetch(`${server.url}/contact`, { headers: { 'x-request-id': 'caddy-7f3a9c21' } });
		expect(proxied.headers.get('x-request-id')).toBe('caddy-7f3a9c21');
		const forged = await fetch(`${server.url}/contact`, { headers: { 'x-request-id': 'x"\\ninjected' } });
		expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

		// Health checks every few seconds would drown the rest: debug only.
		const health = await fetch(`${server.url}/healthz`);
		expect(health.headers.get('x-request-id')).toBeTruthy();
		await requestLine(server, forged.headers.get('x-request-id')!);
		expect(linesOf(server).some((l) => l.id === health.headers.get('x-request-id'))).toBe(false);

		const output = server.output();
		expect(output).not.toContain(secret);
		expect(output).not.toContain(email);
		expect(output).not.toContain('?token');
		for (const line of linesOf(server).filter((l) => l.message === 'request'))
			expect(typeof line.ms).toBe('number');
	} finally {
		await server.stop();
	}
});

test('LOG_LEVEL=warn leaves out the request lines but says when the server is up and stopped; a bad LOG_LEVEL is refused', async () => {
	const quiet = await startServer({ DATABASE_URL: '', LOG_LEVEL: 'warn' });
	try {
		const page = await fetch(`${quiet.url}/contact`);
		expect(page.status).toBe(200);
		await new Promise((resolve) => setTimeout(resolve, 300));
		// Nothing at info but the line that says the server is up (and, once stopped, the one that says so).
		expect(
			linesOf(quiet)
				.filter((l) => l.level === 'info' || l.level === 'debug')
				.map((l) => l.message)
		).toEqual(['listening']);
	} finally {
		await quiet.stop();
	}
	expect(
		linesOf(quiet)
			.filter((l) => l.level === 'info')
			.map((l) => l.message)
	).toEqual(['listening', 'stopped']);
	await expect(startServer({ DATABASE_URL: '', LOG_LEVEL: 'bavard' })).rejects.toThrow(
		/LOG_LEVEL: must be one of "debug", "info", "warn", "error"/
	);
});

test(
	'the error page shows the request id that the log line carries',
	{ tag: '@drivers' },
	async ({ page }) => {
		test.skip(!serverUrl, 'needs a PostgreSQL server whose database can be taken away');
		const database = await createEmptyPostgresDatabase();
		const server = await startServer({ DATABASE_URL: database.url });
		try {
			// A bug, not an outage (which answers 503): the sessions table goes away under the running server, so a
			// signed-in visitor's page cannot be made.
			const sql = postgres(database.url, { max: 1, onnotice: () => {} });
			await sql.unsafe('drop table sessions cascade');
			await sql.end();
			await page.context().addCookies([{ name: 'session', value: 'x'.repeat(43), url: server.url }]);
			const response = await page.goto(`${server.url}/dashboard`);
			expect(response!.status()).toBeGreaterThanOrEqual(500);
			const id = response!.headers()['x-request-id']!;
			await expect(page.getByText(id)).toBeVisible();
			const line = await requestLine(server, id);
			expect(line.status).toBe(response!.status());
			expect(linesOf(server).some((l) => l.message === 'unhandled error' && l.id === id)).toBe(true);
		} finally {
			await server.stop();
			await database.drop();
		}
	}
);

test('a client’s mistake is logged at info, without a stack', async () => {
	const server = await startIsolatedServer();
	try {
		const form = { 'content-type': 'application/x-www-form-urlencoded', origin: server.url };
		// A form posted to a page without actions (405), a form action sent JSON (415), an undecodable path (400).
		const mistakes = [
			await fetch(`${server.url}/aide`, { method: 'POST', headers: form, body: 'a=1' }),
			await fetch(`${server.url}/login`, {
				method: 'POST',
				headers: { ...form, 'content-type': 'application/json' },
				body: '{}'
			}),
			await fetch(`${server.url}/cours/%E0%A4%A`)
		];
		expect(mistakes.map((r) => r.status)).toEqual([405, 415, 400]);
		for (const response of mistakes) await requestLine(server, response.headers.get('x-request-id')!);
		const lines = linesOf(server);
		expect(lines.filter((l) => l.level === 'error')).toEqual([]);
		expect(server.output()).not.toMatch(/\n\s+at /);
		expect(
			lines.filter((l) => l.message === 'client error' && l.level === 'info').map((l) => l.status)
		).toEqual([405, 415, 400]);
	} finally {
		await server.stop();
	}
});
