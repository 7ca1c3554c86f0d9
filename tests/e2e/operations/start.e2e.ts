/**
 * `npm start` as an operator meets it (issue "Self-hosting, part 2", point 5): it reads .env, and a SIGTERM or
 * SIGINT sent to npm stops the server it started — npm exits, and nothing answers on the port any more. Its
 * supervisor keeps the listening socket while the server is replaced (issue « Every door holds, part 2 », point 2).
 * It runs the tests' build (ATELIER_BUILD_DIR), never the build/ a running server may use.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../support/server';

const root = path.resolve(import.meta.dirname, '../../..');

async function answers(url: string): Promise<boolean> {
	try {
		return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok;
	} catch {
		return false;
	}
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
	test(`npm start reads .env, and ${signal} to npm stops the server`, async () => {
		test.setTimeout(120_000);
		const dir = mkdtempSync(path.join(tmpdir(), 'atelier-start-'));
		const port = await freePort();
		const url = `http://127.0.0.1:${port}`;
		const envFile = path.join(dir, '.env');
		// Everything the server needs comes from the file: none of it is in npm's environment.
		writeFileSync(
			envFile,
			`PORT=${port}\nHOST=127.0.0.1\nORIGIN=${url}\nDATA_DIR=${path.join(dir, 'data')}\nDATABASE_URL=\n`
		);
		const env: NodeJS.ProcessEnv = { ...process.env, ATELIER_ENV_FILE: envFile };
		for (const name of ['PORT', 'HOST', 'ORIGIN', 'DATA_DIR', 'DATABASE_URL']) delete env[name];
		const npm = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		npm.stdout.on('data', (chunk) => (output += chunk));
		npm.stderr.on('data', (chunk) => (output += chunk));
		const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));

		await expect.poll(() => answers(url), { timeout: 60_000, message: output }).toBe(true);
		expect(output).toContain('Settings read from');
		npm.kill(signal);
		const code = await exited;
		expect([0, null]).toContain(code);
		expect(output).toContain('"stopped"');
		expect(await answers(url)).toBe(false);
	});
}

/** The processes whose parent is `pid` (/proc/<pid>/stat's fourth field). */
function childrenOf(pid: number): number[] {
	return readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.filter((entry) => {
			try {
				const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
				return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
			} catch {
				return false;
			}
		})
		.map(Number);
}

test('npm start keeps its socket while its server is replaced: a poller every 50 ms is never refused, every answer a 200', async () => {
	test.setTimeout(180_000);
	const dir = mkdtempSync(path.join(tmpdir(), 'atelier-handover-'));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PORT: String(port),
		HOST: '127.0.0.1',
		ORIGIN: url,
		DATA_DIR: path.join(dir, 'data'),
		DATABASE_URL: '',
		ATELIER_ENV_FILE: path.join(dir, 'none.env')
	};
	const npm = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	npm.stdout.on('data', (chunk) => (output += chunk));
	npm.stderr.on('data', (chunk) => (output += chunk));
	const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
	try {
		await expect.poll(() => answers(url), { timeout: 60_000, message: output }).toBe(true);
		// npm runs `node scripts/start.mjs` (the supervisor), which runs the server as its child.
		const [supervisor] = childrenOf(npm.pid!);
		const [first] = childrenOf(supervisor!);
		expect(first, output).toBeTruthy();
		expect(output).toContain('"socket":"inherited"');

		const seen = { ok: 0, refused: 0, other: [] as number[] };
		let polling = true;
		const poller = (async () => {
			while (polling) {
				try {
					// Long enough to wait for the next server: the point is that nothing is refused meanwhile.
					const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(60_000) });
					await response.arrayBuffer();
					if (response.ok) seen.ok++;
					else seen.other.push(response.status);
				} catch {
					seen.refused++;
				}
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
		})();
		await new Promise((resolve) => setTimeout(resolve, 500));
		// The first SIGUSR2 stops the server (it drains) and keeps the socket, as `npm run upgrade` has it while it
		// backs up; connections queue meanwhile. The second starts the current build's server on the same socket.
		process.kill(supervisor!, 'SIGUSR2');
		await expect.poll(() => childrenOf(supervisor!).length, { timeout: 30_000 }).toBe(0);
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		process.kill(supervisor!, 'SIGUSR2');
		await expect.poll(() => childrenOf(supervisor!).length, { timeout: 30_000 }).toBe(1);
		const [second] = childrenOf(supervisor!);
		expect(second).not.toBe(first);
		await expect.poll(() => answers(url), { timeout: 60_000 }).toBe(true);
		await new Promise((resolve) => setTimeout(resolve, 500));
		polling = false;
		await poller;
		expect(seen.refused, output).toBe(0);
		expect(seen.other).toEqual([]);
		expect(seen.ok).toBeGreaterThan(10);
		expect(output).toContain('its socket is kept');
	} finally {
		npm.kill('SIGTERM');
		expect([0, null]).toContain(await exited);
	}
	expect(await answers(url)).toBe(false);
});
