/**
 * One process per embedded database (issue "Self-hosting, part 2", point 1): a second server started by mistake
 * on the same DATA_DIR refuses to start, names the directory and the process that holds it, and the first keeps
 * every write; a server killed with -9 leaves nothing to clean by hand.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, serverEntry, startServer } from '../support/server';

test.describe.configure({ mode: 'serial' });

const admin = { email: 'verrou@exemple.fr', password: 'une phrase de passe solide', name: 'Verrou' };

async function leadOn(url: string, name: string) {
	const response = await fetch(`${url}/api/contact`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			name,
			email: 'client@exemple.fr',
			message: `Demande de ${name}, écrite pour le test du verrou.`
		})
	});
	expect(response.status).toBe(201);
	return ((await response.json()) as { id: string }).id;
}

test('a second server on the same DATA_DIR exits non-zero, naming the directory and the holder; the first keeps every write', async () => {
	test.setTimeout(120_000);
	const first = await startServer({ DATABASE_URL: '' });
	const setup = await fetch(`${first.url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(admin)
	});
	expect(setup.status).toBe(201);
	const before = await leadOn(first.url, 'Avant');

	const second = spawnSync(process.execPath, [serverEntry], {
		env: {
			...process.env,
			DATABASE_URL: '',
			DATA_DIR: first.dataDir,
			PORT: String(await freePort()),
			HOST: '127.0.0.1'
		},
		encoding: 'utf8',
		timeout: 30_000
	});
	expect(second.status).not.toBe(0);
	const said = `${second.stdout}${second.stderr}`;
	expect(said).toContain(`DATA_DIR ${first.dataDir} is in use`);
	expect(said).toContain(`pid ${first.child.pid}`);

	// The admin recovery command refuses too, and says what to do instead.
	const recovery = spawnSync(process.execPath, [path.join(path.dirname(serverEntry), 'admin.js'), 'list'], {
		env: { ...process.env, DATABASE_URL: '', DATA_DIR: first.dataDir },
		encoding: 'utf8',
		timeout: 30_000
	});
	expect(recovery.status).toBe(1);
	expect(recovery.stderr).toContain(`DATA_DIR ${first.dataDir} is in use`);
	expect(recovery.stderr).toContain('Stop the server first');

	// The first server still answers and writes, and after a restart everything it acknowledged is there.
	const after = await leadOn(first.url, 'Après');
	expect(await first.stop()).toBe(0);
	const again = await startServer({ DATABASE_URL: '', DATA_DIR: first.dataDir });
	const secondSetup = await fetch(`${again.url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...admin, email: 'autre@exemple.fr' })
	});
	expect(secondSetup.status).toBe(409);
	const login = await fetch(`${again.url}/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: again.url, accept: 'text/html' },
		body: new URLSearchParams({ email: admin.email, password: admin.password }),
		redirect: 'manual'
	});
	expect(login.status).toBe(303);
	const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
	for (const id of [before, after]) {
		const page = await fetch(`${again.url}/admin/demandes/${id}`, { headers: { cookie } });
		expect(page.status).toBe(200);
	}
	expect(await again.stop()).toBe(0);
});

test('a server killed with -9 leaves nothing to clean: the next start on its DATA_DIR works', async () => {
	test.setTimeout(120_000);
	const first = await startServer({ DATABASE_URL: '' });
	first.child.kill('SIGKILL');
	await new Promise((resolve) => first.child.once('exit', resolve));
	const next = await startServer({ DATABASE_URL: '', DATA_DIR: first.dataDir });
	expect((await fetch(`${next.url}/healthz`)).status).toBe(200);
	expect(await next.stop()).toBe(0);
});
