/**
 * Liveness and readiness (issue "Self-hosting, part 2", point 5): /healthz is a liveness check (the process
 * answers; « Every door holds » took the database out of it), /readyz also checks the bucket and says which part is down, without a secret; a server
 * whose storage cannot be reached says so in its log at start-up.
 */
import { expect, test } from '@playwright/test';
import { startIsolatedServer } from '../support/server';

test('/readyz answers 200 with every part ok on a working site', async ({ request }) => {
	const response = await request.get('/readyz');
	expect(response.status()).toBe(200);
	expect(response.headers()['cache-control']).toBe('no-store');
	expect(await response.json()).toEqual({
		status: 'ready',
		checks: { database: 'ok', storage: 'ok', disk: 'ok' }
	});
});

test('with the bucket out of reach: alive, not ready, the storage named, no secret said, a warning logged', async () => {
	test.setTimeout(90_000);
	const server = await startIsolatedServer({
		STORAGE_DRIVER: 's3',
		S3_ENDPOINT: 'http://127.0.0.1:9',
		S3_ACCESS_KEY: 'readiness-access-key',
		S3_SECRET_KEY: 'readiness-secret-key-never-shown'
	});
	try {
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		const ready = await fetch(`${server.url}/readyz`);
		expect(ready.status).toBe(503);
		const body = await ready.text();
		expect(JSON.parse(body)).toEqual({
			status: 'not ready',
			checks: { database: 'ok', storage: 'down', disk: 'ok' }
		});
		for (const secret of ['readiness-secret-key-never-shown', 'readiness-access-key', '127.0.0.1:9'])
			expect(body).not.toContain(secret);
		await expect.poll(() => server.output()).toContain('storage unreachable at start-up');
		expect(server.output()).not.toContain('readiness-secret-key-never-shown');
	} finally {
		await server.stop();
	}
});
