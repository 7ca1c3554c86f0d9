import { expect, test } from '@playwright/test';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { E2E_ADMIN } from '../support/accounts';
import { startServer } from '../support/server';

// Several instances need a shared server database: PGlite belongs to one process.
test.skip(!serverUrl, 'needs DATABASE_URL (two instances share only the database)');

test(
	'two instances on one PostgreSQL: a PUT on one shows on the other within 1 s',
	{ tag: '@drivers' },
	async () => {
		const database = await createEmptyPostgresDatabase();
		const shared = { DATABASE_URL: database.url, SIGNING_SECRET: 'e2e-shared-secret-of-at-least-32-chars' };
		const a = await startServer(shared);
		const b = await startServer(shared);
		try {
			expect(
				(
					await fetch(`${a.url}/api/admin/setup`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(E2E_ADMIN)
					})
				).status
			).toBe(201);
			const login = await fetch(`${a.url}/login`, {
				method: 'POST',
				redirect: 'manual',
				headers: { 'content-type': 'application/x-www-form-urlencoded', origin: a.url, accept: 'text/html' },
				body: new URLSearchParams({ email: E2E_ADMIN.email, password: E2E_ADMIN.password })
			});
			const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

			const heroVersion = async () => {
				const response = await fetch(`${b.url}/`);
				return {
					state: response.headers.get('x-page-cache'),
					v: /\/api\/img\/hero\?v=([\w-]+)/.exec(await response.text())![1]
				};
			};
			await heroVersion();
			const before = await heroVersion();
			expect(before.state).toBe('HIT');

			const put = await fetch(`${a.url}/api/admin/site-images`, {
				method: 'PUT',
				headers: { 'content-type': 'application/json', cookie },
				body: JSON.stringify({ key: 'hero', url: 'https://images.unsplash.com/photo-from-instance-a' })
			});
			expect(put.status).toBe(200);
			const start = Date.now();
			let seen = before.v;
			while (seen === before.v && Date.now() - start < 5000) {
				seen = (await heroVersion()).v!;
				if (seen === before.v) await new Promise((r) => setTimeout(r, 20));
			}
			const elapsed = Date.now() - start;
			expect(seen).not.toBe(before.v);
			expect(elapsed).toBeLessThan(1000);
			console.log(`instance B showed the change ${elapsed} ms after instance A answered the PUT`);
		} finally {
			expect(await a.stop()).toBe(0);
			expect(await b.stop()).toBe(0);
			await database.drop();
		}
	}
);
