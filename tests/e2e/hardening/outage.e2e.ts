/**
 * With the database gone, public forms answer 503 with Retry-After, the no-JavaScript form keeps what was typed,
 * and the pages' images still show (issue "Hardening", point 10); a signed-in visitor gets the 503 page too, and the
 * log says the outage once and its end once (issue "Durable and upgradable", point 5). A server database is needed
 * to pull it away from under the running app.
 */
import { expect, test } from '../support/fixtures';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import postgres from 'postgres';
import { startServer } from '../support/server';

test(
	'public POST routes answer 503 with Retry-After while the database is down',
	{ tag: '@drivers' },
	async ({ browser }) => {
		test.skip(!serverUrl, 'needs DATABASE_URL: the test drops the server database under the running app');
		const database = await createEmptyPostgresDatabase();
		const server = await startServer({ DATABASE_URL: database.url });
		const context = await browser.newContext({ javaScriptEnabled: false, baseURL: server.url });
		try {
			const page = await context.newPage();
			await page.goto('/contact');
			const login = await context.newPage();
			await login.goto('/login');
			await database.drop();

			const api = await fetch(`${server.url}/api/contact`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Claire', email: 'claire@exemple.fr', message: 'Un message de test.' })
			});
			expect(api.status).toBe(503);
			expect(Number(api.headers.get('retry-after'))).toBeGreaterThan(0);

			await page.getByLabel('Nom', { exact: true }).fill('Claire Dupont');
			await page.getByLabel('Adresse e-mail').fill('claire@exemple.fr');
			await page
				.getByLabel(/Votre message|Message/)
				.fill('Un message tapé avec soin, qui ne doit pas se perdre.');
			const [response] = await Promise.all([
				page.waitForResponse((r) => r.request().method() === 'POST'),
				page.getByRole('button', { name: /Envoyer/ }).click()
			]);
			expect(response.status()).toBe(503);
			await expect(page.getByText('momentanément indisponible')).toBeVisible();
			await expect(page.getByLabel(/Votre message|Message/)).toHaveValue(
				'Un message tapé avec soin, qui ne doit pas se perdre.'
			);

			// The sign-in page cannot tell whether an admin exists: it still gives its form back, e-mail kept.
			await login.getByLabel('Adresse e-mail').fill('claire@exemple.fr');
			await login.getByLabel('Mot de passe').fill('un mot de passe');
			const [signIn] = await Promise.all([
				login.waitForResponse((r) => r.request().method() === 'POST'),
				login.getByRole('button', { name: 'Se connecter' }).click()
			]);
			expect(signIn.status()).toBe(503);
			await expect(login.getByText('momentanément indisponible')).toBeVisible();
			await expect(login.getByLabel('Adresse e-mail')).toHaveValue('claire@exemple.fr');

			const image = await fetch(`${server.url}/api/img/hero`);
			expect(image.status).toBe(200);
			expect(image.headers.get('x-image-fallback')).toBe('1');
		} finally {
			await context.close();
			await server.stop();
		}
	}
);

test(
	'a signed-in visitor gets the 503 page during an outage, and the log says it once, then once that it is back',
	{ tag: '@drivers' },
	async () => {
		test.skip(!serverUrl, 'needs DATABASE_URL: the test drops the server database under the running app');
		const database = await createEmptyPostgresDatabase();
		const server = await startServer({ DATABASE_URL: database.url });
		try {
			const registered = await fetch(`${server.url}/register`, {
				method: 'POST',
				headers: {
					origin: server.url,
					accept: 'text/html',
					'content-type': 'application/x-www-form-urlencoded'
				},
				body: new URLSearchParams({
					name: 'Claire',
					email: 'claire@exemple.fr',
					password: 'une phrase de passe solide'
				}),
				redirect: 'manual'
			});
			expect(registered.status).toBe(303);
			const cookie = registered.headers
				.getSetCookie()
				.map((c) => c.split(';')[0])
				.join('; ');
			expect((await fetch(`${server.url}/profil`, { headers: { cookie } })).status).toBe(200);

			await database.drop();
			for (let i = 0; i < 20; i++) {
				const page = await fetch(`${server.url}/profil`, { headers: { cookie, accept: 'text/html' } });
				expect(page.status).toBe(503);
				expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
				expect(await page.text()).toContain('momentanément indisponible');
				const api = await fetch(`${server.url}/api/admin/site-images`, { headers: { cookie } });
				expect(api.status).toBe(503);
				expect(api.headers.get('content-type')).toContain('application/problem+json');
			}

			// The database comes back (empty: enough for the probe that looks for it).
			const name = new URL(database.url).pathname.slice(1);
			const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
			await admin.unsafe(`create database ${name}`);
			await admin.end();
			const lines = () =>
				server
					.output()
					.split('\n')
					.filter((line) => line.startsWith('{'))
					.map((line) => JSON.parse(line) as { level: string; message: string; outageMs?: number });
			await expect
				.poll(() => lines().some((l) => l.message === 'database back'), { timeout: 15_000 })
				.toBe(true);
			expect(lines().filter((l) => l.message === 'database unavailable')).toHaveLength(1);
			expect(lines().filter((l) => l.message === 'database back')).toEqual([
				expect.objectContaining({ level: 'info', outageMs: expect.any(Number) })
			]);
			expect(lines().filter((l) => l.level === 'error')).toEqual([]);
			expect(lines().filter((l) => /^listening/.test(l.message)).length).toBeLessThanOrEqual(3);
		} finally {
			await server.stop();
			await database.drop();
		}
	}
);

test(
	'an uncached page that meets an outage answers the 503 page, not a 500; a table held by maintenance, not a hang',
	{ tag: '@drivers' },
	async () => {
		test.skip(
			!serverUrl,
			'needs DATABASE_URL: the test locks and closes the server database under the running app'
		);
		const database = await createEmptyPostgresDatabase();
		const server = await startServer({ DATABASE_URL: database.url });
		const name = new URL(database.url).pathname.slice(1);
		const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
		const maintenance = postgres(database.url, { max: 1, onnotice: () => {} });
		try {
			// A table the home page reads, held by maintenance (an ALTER, a VACUUM FULL) for longer than a visitor
			// waits: the page gives up at the server's lock limit and says so, while the lock is still held.
			let released = false;
			let holding!: () => void;
			const locked = new Promise<void>((resolve) => (holding = resolve));
			const held = maintenance.begin(async (tx) => {
				await tx`lock table site_images in access exclusive mode`;
				holding();
				await new Promise((resolve) => setTimeout(resolve, 12_000));
				released = true;
			});
			await locked;
			const home = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
			expect(released).toBe(false);
			expect(home.status).toBe(503);
			expect(Number(home.headers.get('retry-after'))).toBeGreaterThan(0);
			expect(await home.text()).toContain('momentanément indisponible');
			await held;

			// The database closed to connections for maintenance (55000): an uncached page is the 503 page at once.
			await admin.unsafe(`alter database ${name} allow_connections false`);
			await admin.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
			const page = await fetch(`${server.url}/macon`, { headers: { accept: 'text/html' } });
			expect(page.status).toBe(503);
			expect(await page.text()).toContain('momentanément indisponible');

			const lines = server
				.output()
				.split('\n')
				.filter((line) => line.startsWith('{'))
				.map((line) => JSON.parse(line) as { level: string; message: string });
			expect(lines.filter((l) => l.level === 'error')).toEqual([]);
			expect(lines.filter((l) => l.message === 'database unavailable').length).toBeGreaterThan(0);
		} finally {
			await admin.unsafe(`alter database ${name} allow_connections true`).catch(() => {});
			await maintenance.end();
			await admin.end();
			await server.stop();
			await database.drop();
		}
	}
);
