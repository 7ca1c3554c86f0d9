import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { ALLOCATOR_SETTINGS } from '../../../src/server/heap';
import { serverEntry, startServer } from '../support/server';

test.describe.configure({ mode: 'serial' });

test('a bad configuration value stops start-up with a message naming the variable', () => {
	const result = spawnSync(process.execPath, [serverEntry], {
		env: { ...process.env, STORAGE_DRIVER: 'bogus', DATA_DIR: '/tmp/atelier-never-used' },
		encoding: 'utf8',
		timeout: 20_000
	});
	expect(result.status).toBe(1);
	expect(result.stderr).toContain('STORAGE_DRIVER');
	expect(result.stderr).toContain('"bogus"');
});

test(
	'a first start on an empty DATA_DIR sets its allocator, creates the database and the secret, then SIGTERM exits 0',
	{ tag: '@drivers' },
	async () => {
		const server = await startServer({ DATABASE_URL: '' }, { createDatabase: true });
		// Started without the allocator's settings, it runs with them, as the same process (src/server/heap.ts).
		const environment = readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0');
		for (const [name, value] of Object.entries(ALLOCATOR_SETTINGS)) {
			expect(process.env[name]).toBeUndefined();
			expect(environment).toContain(`${name}=${value}`);
		}
		expect(existsSync(path.join(server.dataDir, 'db'))).toBe(true);
		expect(statSync(path.join(server.dataDir, 'secret')).mode & 0o777).toBe(0o600);
		expect((await fetch(`${server.url}/`)).status).toBe(200);
		expect(await server.stop()).toBe(0);
		expect(server.output()).toContain('"stopped"');
	}
);

test(
	'SIGTERM does not wait for idle keep-alive connections, and refuses new ones',
	{ tag: '@drivers' },
	async () => {
		const server = await startServer({ DATABASE_URL: '' });
		const agent = new http.Agent({ keepAlive: true });
		const status = await new Promise<number>((resolve, reject) =>
			http
				.get(`${server.url}/healthz`, { agent }, (response) => {
					response.resume();
					response.on('end', () => resolve(response.statusCode ?? 0));
				})
				.on('error', reject)
		);
		expect(status).toBe(200);
		const started = Date.now();
		expect(await server.stop()).toBe(0);
		// The idle connection would otherwise hold the process for the 65 s keep-alive timeout.
		expect(Date.now() - started).toBeLessThan(5_000);
		await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
		agent.destroy();
	}
);

test('SIGTERM lets an in-flight request finish before the process exits', { tag: '@drivers' }, async () => {
	const server = await startServer({ DATABASE_URL: '' });
	const body = 'email=personne%40exemple.fr&password=une+phrase+quelconque';
	const url = new URL(`${server.url}/login`);
	// A sign-in whose body is still arriving when SIGTERM lands: the server must read it, answer it, then exit.
	const answered = new Promise<number>((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/x-www-form-urlencoded',
					'content-length': Buffer.byteLength(body),
					origin: server.url,
					accept: 'text/html'
				}
			},
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
			}
		);
		request.on('error', reject);
		request.write(body.slice(0, 10));
		setTimeout(() => {
			server.child.kill('SIGTERM');
			setTimeout(() => request.end(body.slice(10)), 500);
		}, 300);
	});
	// 400: the form comes back with "wrong e-mail or password" — an answer, not a dropped connection.
	expect(await answered).toBe(400);
	expect(await server.stop()).toBe(0);
});

test(
	'/healthz is liveness only: 200 while the process answers, a database outage is /readyz’s 503',
	{ tag: '@drivers' },
	async () => {
		test.skip(!serverUrl, 'needs DATABASE_URL: the test drops the server database under the running app');
		const database = await createEmptyPostgresDatabase();
		const server = await startServer({ DATABASE_URL: database.url });
		try {
			expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
			expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
			await database.drop();
			// A liveness probe must not restart every instance for the database's fault.
			const live = await fetch(`${server.url}/healthz`);
			expect(live.status).toBe(200);
			expect((await live.json()).status).toBe('ok');
			const ready = await fetch(`${server.url}/readyz`);
			expect(ready.status).toBe(503);
			expect((await ready.json()).checks.database).toBe('down');
		} finally {
			await server.stop();
		}
	}
);
