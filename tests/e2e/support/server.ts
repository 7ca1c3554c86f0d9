/**
 * Starts the built production server (the tests' build: ATELIER_BUILD_DIR, set by playwright.config.ts) as a child process on a free port, with its own
 * DATA_DIR, and waits until /healthz answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';

export interface RunningServer {
	url: string;
	dataDir: string;
	/** Everything the server wrote, also kept in a file: a failing test prints its part (fixtures.ts). */
	logFile: string;
	child: ChildProcess;
	output: () => string;
	/** SIGTERM, then resolves with the exit code. */
	stop(): Promise<number | null>;
}

/** The tests' own build of the server (scripts/build-dir.mjs), never the build/ a running server uses. */
export const serverEntry = path.join(process.env.ATELIER_BUILD_DIR || 'build', 'server.js');

/** The servers' logs: files, so that a passing run prints nothing of them (test-results/ is ignored by git). */
export const SERVER_LOGS = path.join('test-results', 'servers');

/**
 * A port no other process of the run is handed: each Playwright process (the runner, then each worker by its
 * parallel index) takes ports from a block of its own below the kernel's ephemeral range (32768–60999 here), in
 * turn. A port the kernel picked (`listen(0)`) was free when asked, but another worker's `listen(0)` could get it
 * too while the first server was still starting: the second server could not listen, yet its health check passed
 * against the first, and its test read a log where its requests never were (the likeliest reading of
 * request-log.e2e.ts's failure in CI: no line for a request answered 200). A port held by something else is passed
 * over.
 */
const PORT_BLOCK = 1_000;
const FIRST_PORT = 20_000;
const processSlot =
	process.env.TEST_PARALLEL_INDEX === undefined ? 0 : Number(process.env.TEST_PARALLEL_INDEX) + 1;
let portsHandedOut = 0;

export async function freePort(): Promise<number> {
	for (let tries = 0; tries < PORT_BLOCK; tries++) {
		const port = FIRST_PORT + processSlot * PORT_BLOCK + (portsHandedOut++ % PORT_BLOCK);
		if (await canListenOn(port)) return port;
	}
	throw new Error(`no free port in this process's block (${FIRST_PORT + processSlot * PORT_BLOCK}…)`);
}

const canListenOn = (port: number) =>
	new Promise<boolean>((resolve) => {
		const probe = createServer();
		probe.unref();
		probe.once('error', () => resolve(false));
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
	});

/**
 * An empty embedded database, migrated, made once per run by the tests' build (global set-up): a server on a new
 * DATA_DIR starts from a copy of it instead of creating its own, which takes 6–11 s alone and over 20 s beside the
 * other worker on a 2-core machine — for 40 servers, a third of the suite's time. The copy is of a closed
 * database, file for file; a test about the first start itself asks for `createDatabase`.
 */
const DATABASE_TEMPLATE = path.resolve('.cache', 'e2e-empty-database');

export function makeDatabaseTemplate(): void {
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-e2e-template-'));
	const made = spawnSync(process.execPath, [path.join(path.dirname(serverEntry), 'migrate.js')], {
		env: { ...process.env, DATA_DIR: work, DATABASE_URL: '', SIGNING_SECRET: '' },
		encoding: 'utf8'
	});
	if (made.status !== 0) throw new Error(`the template database could not be made:\n${made.stderr}`);
	rmSync(DATABASE_TEMPLATE, { recursive: true, force: true });
	mkdirSync(path.dirname(DATABASE_TEMPLATE), { recursive: true });
	cpSync(path.join(work, 'db'), DATABASE_TEMPLATE, { recursive: true });
	rmSync(work, { recursive: true, force: true });
}

export async function startServer(
	env: Record<string, string> = {},
	{
		waitFor = true,
		umask,
		createDatabase = false
	}: { waitFor?: boolean; umask?: string; createDatabase?: boolean } = {}
): Promise<RunningServer> {
	// A restart on the port a load balancer already sends to (PORT given) keeps it.
	const port = env.PORT ? Number(env.PORT) : await freePort();
	const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'atelier-e2e-'));
	const embedded = !(env.DATABASE_URL ?? process.env.DATABASE_URL);
	if (embedded && !createDatabase && existsSync(DATABASE_TEMPLATE) && !existsSync(path.join(dataDir, 'db')))
		cpSync(DATABASE_TEMPLATE, path.join(dataDir, 'db'), { recursive: true });
	const url = `http://127.0.0.1:${port}`;
	// With `umask`, started from a shell that sets it first, as a careless service manager would.
	const [command, args] = umask
		? ['/bin/sh', ['-c', `umask ${umask}; exec "${process.execPath}" "${serverEntry}"`]]
		: [process.execPath, [serverEntry]];
	const child = spawn(command, args, {
		env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ORIGIN: url, DATA_DIR: dataDir, ...env },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	mkdirSync(SERVER_LOGS, { recursive: true });
	// The port and the process: a worker that replaces a failed one hands out the same ports again.
	const logFile = path.join(SERVER_LOGS, `server-${port}-${process.pid}.log`);
	const log = createWriteStream(logFile);
	const record = (chunk: Buffer) => {
		output += chunk;
		log.write(chunk);
	};
	child.stdout!.on('data', record);
	child.stderr!.on('data', record);
	child.on('exit', () => log.end());
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

	const server: RunningServer = {
		url,
		dataDir,
		logFile,
		child,
		output: () => output,
		stop: async () => {
			if (child.exitCode === null) child.kill('SIGTERM');
			return exited;
		}
	};
	if (!waitFor) return server;

	const started = Date.now();
	const deadline = started + 60_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
		try {
			const response = await fetch(`${url}/healthz`);
			// Only once this server said it listens: an answer before that came from another process on the port.
			if (response.ok && output.includes('"message":"listening"')) {
				notCountedAgainstTheTest(Date.now() - started);
				return server;
			}
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	child.kill('SIGKILL');
	throw new Error(`server did not become healthy:\n${output}`);
}

/**
 * A start-up is not the test's own time: the first start on an empty DATA_DIR creates the embedded database in a
 * process of its own (6–11 s alone, over 20 s beside the other worker on a 2-core machine), which left a test that
 * starts its server less than half of its time. The test or hook that waited gets that time on top of its own.
 */
function notCountedAgainstTheTest(ms: number): void {
	let info;
	try {
		info = test.info();
	} catch {
		return; // not in a test or a hook: the global set-up, which has no time limit of its own
	}
	if (info.timeout > 0) info.setTimeout(info.timeout + ms);
}

/**
 * A server of its own with an empty database (a fresh PostgreSQL database when DATABASE_URL is set), for tests
 * that need a site where nothing has happened yet — no admin, no counters.
 */
export async function startIsolatedServer(env: Record<string, string> = {}): Promise<RunningServer> {
	const { createEmptyPostgresDatabase, serverUrl } = await import('../../helpers/database');
	const database = serverUrl ? await createEmptyPostgresDatabase() : null;
	const server = await startServer({ DATABASE_URL: database?.url ?? '', ...env });
	const stop = server.stop;
	server.stop = async () => {
		const code = await stop();
		await database?.drop();
		return code;
	};
	return server;
}
