// The steps `npm run upgrade` and `npm run rollback` share: stopping the running server, running a build's
// command, starting a build's server and timing until it answers.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { root } from './build-dir.mjs';
import {
	BUILDS,
	CURRENT_LINK,
	processAlive,
	readSettings,
	releaseOf,
	runningServers,
	serverEnvironment,
	takeOperationLock
} from './releases.mjs';

/** Refused steps print one sentence and change nothing more. */
export class StepError extends Error {}

/**
 * Runs `work` holding the installation's upgrade/rollback lock (releases.mjs): a second `npm run upgrade` or
 * `rollback` meanwhile is refused and changes nothing. Released when `work` ends, whatever the outcome — the
 * server it started may run on under this process, the lock does not.
 */
export async function holdingOperationLock(what, work) {
	const lock = takeOperationLock(what);
	if (lock.heldBy)
		throw new StepError(
			`${what}: refused — another upgrade or rollback is running` +
				(lock.heldBy.pid
					? ` (${lock.heldBy.what}, process ${lock.heldBy.pid}, since ${lock.heldBy.since})`
					: '') +
				'. Nothing was changed. Wait for it to end; if no such process runs, remove builds/operation.lock.'
		);
	try {
		return await work();
	} finally {
		lock.release();
	}
}

const STOP_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 120_000;

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * `--service <unit>`: the server runs under systemd, which stops and starts it (systemctl, no shell). With
 * `archives`, one `<file>.tar.gz` too: a release made by `npm run release` (upgrade only).
 */
export function parseOptions(argv, usage, { archives = false } = {}) {
	const options = { service: null, archive: null };
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--service' && /^[\w@.-]+$/.test(argv[i + 1] ?? '')) options.service = argv[++i];
		else if (archives && !options.archive && /^[^-].*\.tar\.gz$/.test(argv[i]))
			// Where npm was started from, which npm passes on as INIT_CWD.
			options.archive = path.resolve(process.env.INIT_CWD ?? process.cwd(), argv[i]);
		else throw new StepError(usage);
	}
	return options;
}

/** Where the server answers on this machine: HOST and PORT from the settings, the loopback for "any address". */
export function healthUrl(env = process.env) {
	const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
	return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 3000}/healthz`;
}

/**
 * The one server to stop: found in /proc, or the systemd unit named. Refuses several servers (each must be
 * upgraded on its own) and a server under systemd without --service (systemd would start it again at once).
 */
export function serverToStop({ service }) {
	const servers = runningServers();
	// Under systemd: backups and restores run as the unit's user, who owns DATA_DIR. When the unit runs `npm start`'s
	// supervisor (docs/atelier.service), the server is its child: replaced through it, its socket kept.
	if (service) {
		const supervisor = mainPidOf(service);
		const supervised = supervisor ? servers.find((s) => s.supervisor === supervisor) : null;
		return {
			service,
			pid: supervised?.pid ?? null,
			supervisor: supervised ? supervisor : null,
			user: serviceUser(service)
		};
	}
	if (servers.length > 1)
		throw new StepError(
			`Several servers run from this folder (pids ${servers.map((s) => s.pid).join(', ')}): stop all but one first.`
		);
	const [server] = servers;
	if (server?.unit)
		throw new StepError(
			`The server (pid ${server.pid}) runs under systemd (${server.unit}): run this again with ` +
				`--service ${server.unit}, as a user allowed to run systemctl stop and start on it (docs/operations.md).`
		);
	return server
		? { service: null, pid: server.pid, env: server.env, supervisor: server.supervisor ?? null }
		: null;
}

/**
 * What this command is run with that no server reads: how it builds (scripts/build.mjs), kept when the server's
 * environment replaces the rest. The upgrade tests' cache of builds by sources was dropped here, and each of their
 * upgrades built from scratch (66 s alone, minutes beside the other tests) what the cache held.
 */
const COMMAND_OWN = new Set(['ATELIER_BUILD_CACHE']);

/**
 * The settings to run the next server with: those the running one was started with when it can be read (its
 * PORT, DATA_DIR, DATABASE_URL… were perhaps given in its environment rather than in .env), then .env, as
 * `npm start` reads them.
 */
export function adoptSettings(server) {
	if (server?.env) {
		for (const name of Object.keys(process.env))
			if (!(name in server.env) && !COMMAND_OWN.has(name)) delete process.env[name];
		Object.assign(process.env, server.env);
	}
	// A socket handed down to that server is not the next one's (src/server/inherited-socket.ts).
	for (const name of ['LISTEN_FDS', 'LISTEN_PID', 'LISTEN_FDNAMES']) delete process.env[name];
	readSettings();
}

/**
 * How a command runs with the privilege it needs (docs/operations.md, « Under systemd »): `systemctl stop|start`
 * as root — directly when this process is root, else through `sudo -n` (never a password prompt: a sudoers line
 * allows those two commands) — and the build's backup and restore as the service's user, who owns DATA_DIR — through
 * setpriv when root, else `sudo -n -E -u <user>` (the sudoers line allows node with SETENV: the commands need the
 * settings in their environment). Returns [file, args]; pure, for the tests.
 */
export function privileged({
	argv,
	as = null,
	uid = process.getuid?.() ?? 0,
	currentUser = userInfo().username
}) {
	if (as === 'root') return uid === 0 ? [argv[0], argv.slice(1)] : ['sudo', ['-n', ...argv]];
	if (!as || as === currentUser) return [argv[0], argv.slice(1)];
	if (uid === 0) return ['setpriv', [`--reuid=${as}`, `--regid=${as}`, '--init-groups', '--', ...argv]];
	return ['sudo', ['-n', '-E', '-u', as, '--', ...argv]];
}

/** `systemctl <verb> … <unit>` with root's privilege (privileged). */
function systemctl(verb, unit, options = []) {
	const [file, args] = privileged({ argv: ['systemctl', verb, ...options, unit], as: 'root' });
	try {
		execFileSync(file, args, { stdio: 'inherit' });
	} catch (error) {
		throw new StepError(
			`systemctl ${[verb, ...options].join(' ')} ${unit} failed` +
				(file === 'sudo'
					? ' (through sudo -n: this user must be allowed it without a password — docs/operations.md).'
					: '.'),
			{ cause: error }
		);
	}
}

/** SIGUSR2 to the unit's main process, `npm start`'s supervisor: the first stops the server, the next starts one. */
const signalSupervisor = (unit) => systemctl('kill', unit, ['--kill-who=main', '--signal=SIGUSR2']);

/** The unit's main process (its MainPID), or null when it runs none or systemctl cannot say. */
function mainPidOf(unit) {
	try {
		const pid = Number(
			execFileSync('systemctl', ['show', '-p', 'MainPID', '--value', unit], {
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore']
			}).trim()
		);
		return Number.isInteger(pid) && pid > 0 ? pid : null;
	} catch {
		return null;
	}
}

/** The user a systemd unit runs as (its User=), or null for root or when systemctl cannot say. */
export function serviceUser(unit) {
	try {
		const user = execFileSync('systemctl', ['show', '-p', 'User', '--value', unit], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore']
		}).trim();
		return /^[a-z_][\w.-]{0,31}$/i.test(user) && user !== 'root' ? user : null;
	} catch {
		return null;
	}
}

/** Stops the server and waits until it has exited (it drains in-flight requests first). */
export async function stopServer(server) {
	if (server.service && !server.supervisor) {
		systemctl('stop', server.service);
		return;
	}
	if (server.service) signalSupervisor(server.service);
	else
		try {
			// Under `npm start`, its supervisor stops it and keeps the socket: connections wait for the next server.
			process.kill(server.supervisor ?? server.pid, server.supervisor ? 'SIGUSR2' : 'SIGTERM');
		} catch (error) {
			if (error.code === 'EPERM')
				throw new StepError(`The server (pid ${server.pid}) belongs to another user: run this as that user.`);
			if (error.code !== 'ESRCH') throw error;
		}
	const deadline = Date.now() + STOP_TIMEOUT_MS;
	while (processAlive(server.pid)) {
		if (Date.now() > deadline)
			throw new StepError(`The server (pid ${server.pid}) did not stop within ${seconds(STOP_TIMEOUT_MS)}.`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

/**
 * Runs `<build>/<command>.js` with the server's environment — as the service's user when `as` names one (the owner
 * of DATA_DIR under systemd: privileged) — and returns its standard output.
 */
export function runBuildCommand(buildDir, command, args, { as = null } = {}) {
	const [file, fileArgs] = privileged({
		argv: [process.execPath, path.join(buildDir, `${command}.js`), ...args],
		as
	});
	try {
		return execFileSync(file, fileArgs, {
			cwd: root,
			env: serverEnvironment(),
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			maxBuffer: 16 * 1024 * 1024
		});
	} catch (error) {
		throw new StepError(`${command} failed (exit ${error.status ?? error.signal}).`, { cause: error });
	}
}

/**
 * A new backup file in DATA_DIR/backups (private to the service's user): atelier-<what>-<time>.tar.gz.age, encrypted
 * by the backup command to the installation's key (DATA_DIR/backup-key.txt), which the rollback's restore uses.
 * The folder is made by the service's user when `as` names one (DATA_DIR is theirs, closed to others).
 */
export function backupFile(what, { as = null } = {}) {
	const folder = path.join(serverEnvironment().DATA_DIR, 'backups');
	const [file, args] = privileged({
		argv: [
			process.execPath,
			'-e',
			'require("node:fs").mkdirSync(process.argv[1], { recursive: true, mode: 0o700 })',
			folder
		],
		as
	});
	if (file === process.execPath) mkdirSync(folder, { recursive: true, mode: 0o700 });
	else execFileSync(file, args, { stdio: 'inherit' });
	const time = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
	return path.join(folder, `atelier-${what}-${time}Z.tar.gz.age`);
}

/** Where a server started by `npm run upgrade` or `rollback` writes its log (appended). */
const LOGS = path.join(root, 'logs');
export const SERVER_LOG = path.join(LOGS, 'server.log');

/**
 * Starts the current build's server: through systemd, or on its own, detached from this process and its terminal
 * (its output appended to logs/server.log).
 */
export function startServer(server) {
	if (server?.supervisor && processAlive(server.supervisor))
		return startUnderSupervisor(server.supervisor, server.service);
	if (server?.service) {
		systemctl('start', server.service);
		return null;
	}
	// Detached from this terminal (a session of its own, its output in a file): closing the SSH session that ran
	// the upgrade must not stop the site. A service manager is better still (--service, docs/deploy.md).
	mkdirSync(LOGS, { recursive: true, mode: 0o700 });
	keepLogsOutOfGit();
	const log = openSync(SERVER_LOG, 'a', 0o600);
	const child = spawn(process.execPath, [path.join(CURRENT_LINK, 'server.js')], {
		cwd: root,
		// The upgrade wrote its backup already: the server need not write another before it migrates.
		env: { ...serverEnvironment(), BACKUP_BEFORE_MIGRATING: 'false' },
		stdio: ['ignore', log, log],
		detached: true
	});
	closeSync(log);
	let exited = null;
	child.on('exit', (code, signal) => (exited = { code, signal }));
	return {
		child,
		exited: () => exited,
		/** The server answers: this process lets it go, and says how to find and stop it. */
		adopt() {
			child.unref();
			console.log(
				`The server runs on its own (pid ${child.pid}), detached from this terminal; its log is ` +
					`${path.relative(root, SERVER_LOG)}. Stop it with \`kill ${child.pid}\` (it finishes its requests ` +
					'first), or run it under systemd and pass --service (docs/deploy.md).'
			);
		}
	};
}

/**
 * An older installation's .gitignore may not name logs/ (0.5.0's did not, and its upgrade from an archive starts the
 * server here): its git is told so locally (`info/exclude`, the repository's own list, never a tracked file), so
 * that `git status` stays clean and `git pull` goes on working. Nothing is done where git already ignores it, or
 * where the installation is no git checkout.
 */
function keepLogsOutOfGit() {
	const ignored = spawnSync('git', ['check-ignore', '-q', path.relative(root, SERVER_LOG)], { cwd: root });
	// 0: ignored already; 128 or no git: not a checkout. Only 1 says « not ignored ».
	if (ignored.status !== 1) return;
	const exclude = spawnSync('git', ['rev-parse', '--git-path', 'info/exclude'], {
		cwd: root,
		encoding: 'utf8'
	});
	if (exclude.status !== 0) return;
	const file = path.resolve(root, exclude.stdout.trim());
	mkdirSync(path.dirname(file), { recursive: true });
	appendFileSync(
		file,
		'\n# The log of a server `npm run upgrade` started (Atelier, scripts/upgrade-steps.mjs)\n/logs/\n'
	);
}

/**
 * The `npm start` that ran the stopped server starts the current build's on the socket it kept
 * (scripts/supervisor.mjs): the connections that waited meanwhile are answered by it.
 */
function startUnderSupervisor(supervisor, service) {
	if (service) signalSupervisor(service);
	else process.kill(supervisor, 'SIGUSR2');
	return {
		child: null,
		exited: () => (processAlive(supervisor) ? null : { code: 'npm start ended' }),
		adopt() {
			console.log(
				`The server runs under npm start's supervisor (pid ${supervisor}${service ? `, the unit ${service}` : ''}), ` +
					'which kept its socket: connections waited for the new server, none was refused.'
			);
		}
	};
}

/** Waits until /healthz answers 200 from the build `dir` (its version and commit); returns when it did. */
export async function waitUntilServing(dir, started, env = process.env) {
	const expected = releaseOf(dir);
	const url = healthUrl(env);
	const deadline = Date.now() + START_TIMEOUT_MS;
	while (Date.now() < deadline) {
		if (started?.exited())
			throw new StepError(
				`The server of ${path.relative(root, dir)} exited (code ${started.exited().code}).`
			);
		try {
			const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
			const body = response.ok ? await response.json() : null;
			if (body?.version === expected.version && body?.commit === expected.commit) return Date.now();
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new StepError(`No answer from ${url} within ${seconds(START_TIMEOUT_MS)}.`);
}

/** How many migrations a build ships. */
export function migrationsOf(dir) {
	try {
		return JSON.parse(readFileSync(path.join(dir, 'drizzle', 'meta', '_journal.json'), 'utf8')).entries
			.length;
	} catch {
		return null;
	}
}

export const buildPath = (name) => path.join(BUILDS, name);
