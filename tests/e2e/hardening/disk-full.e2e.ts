/**
 * A full disk under the embedded database (issue « What we promise, held at the edges », point 4): a form answers
 * 503 « espace disque plein » with what was typed kept, never « Erreur interne »; /readyz says why, /healthz still
 * says the process lives; the log says it once at warn, with no error and no stack; once space is freed, all is as
 * before. DATA_DIR is a small tmpfs of its own (mounting needs root, as CI and the developers' machines run).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer } from '../support/server';

const mounted = (() => {
	if (process.getuid?.() !== 0) return null;
	const dir = mkdtempSync(path.join(tmpdir(), 'atelier-full-disk-'));
	const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', dir]);
	return mount.status === 0 ? dir : null;
})();

test.afterAll(() => {
	if (!mounted) return;
	spawnSync('umount', ['-l', mounted]);
	rmSync(mounted, { recursive: true, force: true });
});

let visitor = 0;
/** A new account, each from an address of its own (ADDRESS_HEADER): the limit per address is not what is tested. */
const register = (url: string, email: string) =>
	fetch(`${url}/register`, {
		method: 'POST',
		headers: {
			origin: url,
			accept: 'text/html',
			'content-type': 'application/x-www-form-urlencoded',
			'x-real-ip': `198.51.100.${++visitor}`
		},
		body: new URLSearchParams({ name: 'Claire', email, password: 'une phrase de passe solide' }),
		redirect: 'manual'
	});

test('a full disk: forms say « espace disque plein », /readyz says why, one warn; freed, all is as before', async () => {
	test.skip(!mounted, 'needs root to mount a small tmpfs for DATA_DIR');
	const server = await startServer({
		DATA_DIR: path.join(mounted!, 'data'),
		DATABASE_URL: '',
		ADDRESS_HEADER: 'x-real-ip'
	});
	const filler = path.join(mounted!, 'filler');
	try {
		expect((await register(server.url, 'avant@exemple.fr')).status).toBe(303);
		// Everything left but a few kilobytes.
		const free = Number(
			execFileSync('df', ['--output=avail', '-B1', mounted!], { encoding: 'utf8' }).trim().split('\n').at(-1)
		);
		execFileSync('fallocate', ['-l', String(free - 4096), filler]);

		// New accounts until one needs a page the database cannot add (rows fit in the pages it has for a while).
		let refused: Response | null = null;
		let email = '';
		for (let i = 0; i < 150 && !refused; i++) {
			email = `pendant-${i}@exemple.fr`;
			const answer = await register(server.url, email);
			if (answer.status !== 303) refused = answer;
		}
		expect(refused?.status).toBe(503);
		expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
		const page = await refused!.text();
		expect(page).toContain('espace disque plein');
		expect(page).not.toContain('Erreur interne');
		// What was typed comes back with the form.
		expect(page).toContain(email);
		// Again and again: the same answer, and still one line in the log.
		for (let i = 0; i < 3; i++)
			expect((await register(server.url, `encore-${i}@exemple.fr`)).status).toBe(503);
		const ready = await fetch(`${server.url}/readyz`);
		expect(ready.status).toBe(503);
		expect(await ready.json()).toMatchObject({
			status: 'not ready',
			checks: { database: 'full', disk: 'full' },
			reason: 'espace disque plein'
		});
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

		const lines = () =>
			server
				.output()
				.split('\n')
				.filter((line) => line.startsWith('{'))
				.map((line) => JSON.parse(line) as { level: string; message: string });
		expect(lines().filter((l) => l.message.startsWith('disk full'))).toEqual([
			expect.objectContaining({ level: 'warn' })
		]);
		expect(lines().filter((l) => l.level === 'error')).toEqual([]);

		rmSync(filler);
		await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status).toBe(200);
		expect((await register(server.url, 'apres@exemple.fr')).status).toBe(303);
	} finally {
		rmSync(filler, { force: true });
		expect(await server.stop()).toBe(0);
	}
});
