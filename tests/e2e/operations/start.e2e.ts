/**
 * `npm start` as an operator meets it (issue "Self-hosting, part 2", point 5): it reads .env, and a SIGTERM or
 * SIGINT sent to npm stops the server it started — npm exits, and nothing answers on the port any more. It runs
 * the tests' build (ATELIER_BUILD_DIR), never the build/ a running server may use.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
