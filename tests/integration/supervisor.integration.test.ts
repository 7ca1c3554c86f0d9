/**
 * The supervisor `npm start` and the systemd unit run the server under (scripts/supervisor.mjs), driven with a
 * stand-in server (a few lines of node:http that listen where they are told) so that each of its states is tried
 * in a second: a request made while no server runs waits and is answered by the next one; the server's own exit
 * ends the supervisor with its code; SIGTERM while it holds the socket ends it at once; a build that binds its port
 * itself gets the port; a port already taken is said in words.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const supervisorModule = path.resolve('scripts/supervisor.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'atelier-supervisor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The stand-in server: on the socket handed down when there is one, else on PORT; it says which process answered.
writeFileSync(
	path.join(dir, 'server.mjs'),
	`import http from 'node:http';
const server = http.createServer((_, res) => res.end(String(process.pid)));
if (process.env.LISTEN_FDS === '1') server.listen({ fd: 3 });
else server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
if (process.env.EXIT_WITH) setTimeout(() => process.exit(Number(process.env.EXIT_WITH)), 300);
`
);
// What `npm start` does with it, the build to start read again at each start.
writeFileSync(
	path.join(dir, 'start.mjs'),
	`import { readFileSync } from 'node:fs';
import { supervise } from ${JSON.stringify(supervisorModule)};
await supervise({
	host: '127.0.0.1',
	port: Number(process.env.PORT),
	env: process.env,
	current: () => ({ ...JSON.parse(readFileSync(${JSON.stringify(path.join(dir, 'current.json'))}, 'utf8')), backedUp: false })
});
`
);
const current = (inherits: boolean) =>
	writeFileSync(
		path.join(dir, 'current.json'),
		JSON.stringify({ entry: path.join(dir, 'server.mjs'), inherits })
	);

async function freePort(): Promise<number> {
	const probe = createServer().listen(0, '127.0.0.1');
	await once(probe, 'listening');
	const { port } = probe.address() as { port: number };
	await new Promise((resolve) => probe.close(resolve));
	return port;
}

/** A request on a connection of its own: the answering process's pid, or the error's code. */
const ask = (port: number) =>
	new Promise<string>((resolve) => {
		get({ host: '127.0.0.1', port, agent: false, timeout: 20_000 }, (response) => {
			let body = '';
			response.on('data', (chunk) => (body += chunk));
			response.on('end', () => resolve(body));
		}).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
	});

function supervisor(port: number, env: Record<string, string> = {}) {
	const child: ChildProcess = spawn(process.execPath, [path.join(dir, 'start.mjs')], {
		env: { ...process.env, PORT: String(port), ...env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout!.on('data', (chunk) => (output += chunk));
	child.stderr!.on('data', (chunk) => (output += chunk));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, exited, output: () => output };
}

async function answered(port: number): Promise<string> {
	for (let i = 0; i < 200; i++) {
		const answer = await ask(port);
		if (/^\d+$/.test(answer)) return answer;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new Error(`nothing answered on ${port}`);
}

describe('the supervisor', () => {
	it('keeps the socket between two servers: a request made meanwhile waits and the next server answers it', async () => {
		current(true);
		const port = await freePort();
		const run = supervisor(port);
		try {
			const first = await answered(port);
			run.child.kill('SIGUSR2');
			await expect.poll(run.output, { timeout: 10_000 }).toContain('its socket is kept');
			// No server runs now: the request waits in the socket's queue, neither refused nor lost.
			const waiting = ask(port);
			await new Promise((resolve) => setTimeout(resolve, 300));
			run.child.kill('SIGUSR2');
			const second = await waiting;
			expect(second).toMatch(/^\d+$/);
			expect(second).not.toBe(first);
		} finally {
			run.child.kill('SIGTERM');
			expect(await run.exited).toBe(0);
		}
	});

	it('ends with the server’s own exit code when the server exits on its own', async () => {
		current(true);
		const run = supervisor(await freePort(), { EXIT_WITH: '7' });
		expect(await run.exited).toBe(7);
		expect(run.output()).toContain('The server exited (code 7)');
	});

	it('ends at once on SIGTERM while it holds the socket with no server', async () => {
		current(true);
		const port = await freePort();
		const run = supervisor(port);
		await answered(port);
		run.child.kill('SIGUSR2');
		await expect.poll(run.output, { timeout: 10_000 }).toContain('its socket is kept');
		run.child.kill('SIGTERM');
		expect(await run.exited).toBe(0);
		expect(await ask(port)).toBe('ECONNREFUSED');
	});

	it('gives the port up to a build that binds it itself (a rollback to a build made before the supervisor)', async () => {
		current(true);
		const port = await freePort();
		const run = supervisor(port);
		try {
			await answered(port);
			current(false);
			run.child.kill('SIGUSR2');
			await expect.poll(run.output, { timeout: 10_000 }).toContain('its socket is kept');
			run.child.kill('SIGUSR2');
			await expect.poll(run.output, { timeout: 10_000 }).toContain('the socket is given up for it');
			expect(await answered(port)).toMatch(/^\d+$/);
		} finally {
			run.child.kill('SIGTERM');
			await run.exited;
		}
	});

	it('says in words that the port is taken, and starts no server', async () => {
		current(true);
		const taken = createServer().listen(0, '127.0.0.1');
		await once(taken, 'listening');
		const { port } = taken.address() as { port: number };
		try {
			const run = supervisor(port);
			expect(await run.exited).toBe(1);
			expect(run.output()).toContain(`127.0.0.1:${port} cannot be used (EADDRINUSE)`);
		} finally {
			taken.close();
		}
	});
});
