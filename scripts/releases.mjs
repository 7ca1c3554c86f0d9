// Builds side by side, and the servers that run them (issue "Durable and upgradable", points 2 and 3).
//
// Each build has a folder of its own, builds/<version>-<commit>, and `build` is a symbolic link to the current one,
// replaced in one rename(2). Node resolves that link when it loads a module, so a running server goes on reading
// the files of the build it started from, whatever becomes current meanwhile; a server started after the switch
// runs the new one. `build` as a plain folder is what releases up to 0.2.0 made: it is "adopted" into builds/
// (moved there) only when no server runs from it.
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	realpathSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import path from 'node:path';
import { root, stampOf } from './build-dir.mjs';

export const BUILDS = path.join(root, 'builds');
export const CURRENT_LINK = path.join(root, 'build');
/** What `npm run upgrade` did last, for `npm run rollback`. */
export const UPGRADE_RECORD = path.join(BUILDS, 'last-upgrade.json');
/** Builds kept besides the current one and those the last upgrade names. */
const KEEP_OTHERS = 2;

/** The current build: { dir, name } for a link into builds/, { dir, name: null } for a plain folder, or null. */
export function currentBuild() {
	let stat;
	try {
		stat = lstatSync(CURRENT_LINK);
	} catch {
		return null;
	}
	if (stat.isDirectory()) return { dir: CURRENT_LINK, name: null };
	if (!stat.isSymbolicLink() || !existsSync(CURRENT_LINK)) return null;
	const dir = realpathSync(CURRENT_LINK);
	return { dir, name: path.basename(dir) };
}

export function releaseOf(dir) {
	try {
		return JSON.parse(readFileSync(path.join(dir, 'release.json'), 'utf8'));
	} catch {
		return { version: 'unknown', commit: 'unknown' };
	}
}

/**
 * What a build is, in one word an operator can compare: a release's version (`0.5.0`) when it was built from that
 * release's tagged commit with nothing changed, else `version+commit` (`0.5.0+04f86b8a1c2d`) — two builds of
 * different commits are never both « 0.5.0 ». Said by the start line, /healthz, `rollback --list` and the upgrade.
 */
export function labelOf({ version, commit, release }) {
	return release === true ? version : `${version}+${commit}`;
}

/** Whether the working tree is `version`'s release: HEAD tagged `v<version>` (or `<version>`), nothing changed. */
export function isReleaseCommit(version) {
	try {
		const git = (...args) =>
			execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
		const tags = git('tag', '--points-at', 'HEAD').split('\n');
		if (!tags.includes(`v${version}`) && !tags.includes(version)) return false;
		return git('status', '--porcelain', '--untracked-files=no').trim() === '';
	} catch {
		return false;
	}
}

/** Finished builds in builds/, newest first. */
export function listBuilds() {
	if (!existsSync(BUILDS)) return [];
	return readdirSync(BUILDS, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
		.map((entry) => path.join(BUILDS, entry.name))
		.filter((dir) => existsSync(stampOf(dir)) && existsSync(path.join(dir, 'server.js')))
		.map((dir) => ({ dir, name: path.basename(dir), builtAt: statSync(stampOf(dir)).mtimeMs }))
		.sort((a, b) => b.builtAt - a.builtAt);
}

/** A free folder name for a build of `version` at `commit`: 0.3.0-1a2b3c4d5e6f, then -2, -3… when rebuilt. */
export function freeName({ version, commit }) {
	const base = `${version}-${commit}`.replace(/[^\w.-]/g, '_');
	for (let n = 1; ; n++) {
		const name = n === 1 ? base : `${base}-${n}`;
		if (!existsSync(path.join(BUILDS, name))) return name;
	}
}

/** Makes builds/<name> the current build: a new link renamed over `build`, which no reader ever sees missing. */
export function switchTo(name) {
	if (!existsSync(path.join(BUILDS, name, 'server.js'))) throw new Error(`builds/${name} is not a build`);
	if (currentBuild()?.name === null) throw new Error('build/ is a folder: adopt it first');
	const next = `${CURRENT_LINK}.next-${process.pid}`;
	rmSync(next, { force: true });
	symlinkSync(path.join('builds', name), next);
	renameSync(next, CURRENT_LINK);
}

/**
 * Moves a plain build/ folder (releases up to 0.2.0) into builds/, with the migrations it was built with — the
 * first `migrationCount` of the working tree's (migrations are only ever added), or, when not given, those older
 * than the build — so that starting it again never applies a newer release's migrations.
 */
export function adoptFolder(migrationCount) {
	const release = releaseOf(CURRENT_LINK);
	const name = freeName(
		release.version === 'unknown' ? { version: 'legacy', commit: String(Date.now()) } : release
	);
	const dir = path.join(BUILDS, name);
	const journalFile = path.join(root, 'drizzle', 'meta', '_journal.json');
	const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
	const builtAt = existsSync(stampOf(CURRENT_LINK))
		? statSync(stampOf(CURRENT_LINK)).mtimeMs
		: statSync(CURRENT_LINK).mtimeMs;
	const entries =
		migrationCount === undefined
			? journal.entries.filter((entry) => entry.when <= builtAt)
			: journal.entries.slice(0, migrationCount);
	const migrations = path.join(CURRENT_LINK, 'drizzle');
	if (!existsSync(migrations)) {
		mkdirSync(path.join(migrations, 'meta'), { recursive: true });
		for (const entry of entries)
			cpSync(path.join(root, 'drizzle', `${entry.tag}.sql`), path.join(migrations, `${entry.tag}.sql`));
		writeFileSync(path.join(migrations, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
	}
	// Up to 0.2.0 the code found its installation by looking for drizzle/ above itself: with the copy above it
	// would take the build for the installation, so it gets the package.json (module type, version) it expects.
	// Its DATA_DIR is always given in the environment (serverEnvironment).
	if (!existsSync(path.join(CURRENT_LINK, 'package.json')))
		writeFileSync(
			path.join(CURRENT_LINK, 'package.json'),
			JSON.stringify({ name: 'atelier', version: release.version, private: true, type: 'module' }) + '\n'
		);
	mkdirSync(BUILDS, { recursive: true });
	renameSync(CURRENT_LINK, dir);
	symlinkSync(path.join('builds', name), CURRENT_LINK);
	return name;
}

/**
 * Removes the oldest builds, keeping the current one, those the last upgrade names, the one each running server
 * started from (the newest built before it started), and KEEP_OTHERS more.
 */
export function pruneBuilds() {
	const keep = new Set([currentBuild()?.name]);
	const record = readUpgradeRecord();
	if (record) keep.add(record.from).add(record.to);
	const builds = listBuilds();
	for (const server of runningServers())
		if (server.startedAt) keep.add(builds.find((build) => build.builtAt <= server.startedAt)?.name);
	let others = 0;
	for (const build of builds) {
		if (keep.has(build.name)) continue;
		if (others++ < KEEP_OTHERS) continue;
		rmSync(build.dir, { recursive: true, force: true });
	}
	// Unfinished builds whose builder is gone.
	if (existsSync(BUILDS))
		for (const entry of readdirSync(BUILDS)) {
			const pid = /^\.partial-(\d+)$/.exec(entry)?.[1];
			if (pid && !processAlive(Number(pid)))
				rmSync(path.join(BUILDS, entry), { recursive: true, force: true });
		}
}

export function readUpgradeRecord() {
	try {
		return JSON.parse(readFileSync(UPGRADE_RECORD, 'utf8'));
	} catch {
		return null;
	}
}

/**
 * The build `npm start` must serve as it is, although the sources here may be newer or older: the one a rollback
 * went back to (until the next upgrade), or one an upgrade installed from a release archive (made elsewhere, from
 * other sources). `{ name, why }` while it is still the current build, else null.
 */
export function pinnedBuild() {
	const record = readUpgradeRecord();
	const current = currentBuild();
	if (!record || !current) return null;
	if (record.rolledBackAt && current.name === record.from)
		return { name: record.from, why: `which \`npm run rollback\` went back to (${record.rolledBackAt})` };
	if (record.archive && !record.rolledBackAt && current.name === record.to)
		return { name: record.to, why: `which \`npm run upgrade\` installed from ${record.archive}` };
	return null;
}

/**
 * The build an upgrade has just backed up for (`npm run upgrade` writes it before it starts that build, removes it
 * once the build answers): `npm start`'s supervisor starts that build without the backup a server writes before it
 * migrates — the upgrade's is of the same data, and a second would lengthen the wait. Kept for minutes at most.
 */
const BACKED_UP = path.join(BUILDS, 'backed-up.json');
const BACKED_UP_FOR_MS = 10 * 60 * 1000;

export function noteBackedUp(name, file) {
	writeFileSync(BACKED_UP, JSON.stringify({ name, file, at: Date.now() }) + '\n');
}

export function forgetBackedUp() {
	rmSync(BACKED_UP, { force: true });
}

export function backedUpFor(name) {
	try {
		const noted = JSON.parse(readFileSync(BACKED_UP, 'utf8'));
		return noted.name === name && Date.now() - noted.at < BACKED_UP_FOR_MS;
	} catch {
		return false;
	}
}

export function writeUpgradeRecord(record) {
	mkdirSync(BUILDS, { recursive: true });
	const next = `${UPGRADE_RECORD}.${process.pid}`;
	writeFileSync(next, JSON.stringify(record, null, '\t') + '\n');
	renameSync(next, UPGRADE_RECORD);
}

/** Held by one `npm run upgrade` or `npm run rollback` at a time, while it works (not while the server it started runs). */
export const OPERATION_LOCK = path.join(BUILDS, 'operation.lock');

/**
 * Takes the installation's upgrade/rollback lock: an exclusive create of builds/operation.lock naming this process.
 * Returns its release, or `{ heldBy }` when another live process holds it. A lock whose process is gone (killed,
 * the machine restarted) is stale: it is taken over.
 */
export function takeOperationLock(what) {
	mkdirSync(BUILDS, { recursive: true });
	for (let attempt = 0; attempt < 3; attempt++) {
		try {
			const holder = { pid: process.pid, what, since: new Date().toISOString() };
			writeFileSync(OPERATION_LOCK, JSON.stringify(holder) + '\n', { flag: 'wx' });
			let released = false;
			const release = () => {
				if (released) return;
				released = true;
				rmSync(OPERATION_LOCK, { force: true });
			};
			process.once('exit', release);
			return { release };
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			let heldBy = null;
			try {
				heldBy = JSON.parse(readFileSync(OPERATION_LOCK, 'utf8'));
			} catch {
				// Being written this instant, or unreadable: treated as held once more, then as stale.
				if (attempt === 0) continue;
			}
			if (heldBy && Number.isInteger(heldBy.pid) && processAlive(heldBy.pid)) return { heldBy };
			// Stale: moved aside under a name of this process's own (two takers cannot both remove one fresh lock).
			try {
				renameSync(OPERATION_LOCK, `${OPERATION_LOCK}.stale-${process.pid}`);
				rmSync(`${OPERATION_LOCK}.stale-${process.pid}`, { force: true });
			} catch (renameError) {
				if (renameError.code !== 'ENOENT') throw renameError;
			}
		}
	}
	return { heldBy: { pid: null, what: 'unknown', since: null } };
}

export function processAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

const SERVER_SCRIPTS = new Set([path.join(root, 'scripts', 'start.mjs')]);

/** Whether `file` is a server entry of this installation: scripts/start.mjs, build/server.js, builds/*\/server.js. */
function isServerEntry(file) {
	if (SERVER_SCRIPTS.has(file)) return true;
	if (path.basename(file) !== 'server.js') return false;
	const dir = path.dirname(file);
	return dir === CURRENT_LINK || path.dirname(dir) === BUILDS;
}

/**
 * The processes serving from this installation, found in /proc: a `node` whose script is one of its server
 * entries (`npm start`, the systemd unit's `node build/server.js`, a server `npm run upgrade` started). For each,
 * the systemd unit it runs under, if any, and the environment it was started with. Only the current user's
 * processes can be seen whole.
 */
export function runningServers() {
	if (!existsSync('/proc/self/cmdline')) return [];
	const servers = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		const pid = Number(entry);
		let args;
		let cwd;
		try {
			args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
			if (!args.length || !/^node(js)?(\d+)?$/.test(path.basename(args[0]))) continue;
			cwd = readlinkSync(`/proc/${pid}/cwd`);
		} catch {
			continue;
		}
		const script = args.slice(1).find((arg) => !arg.startsWith('-'));
		const file = script && path.resolve(cwd, script);
		if (!file || !isServerEntry(file)) continue;
		servers.push({
			pid,
			unit: systemdUnitOf(pid),
			env: environmentOf(pid),
			startedAt: startTimeOf(pid),
			parent: parentOf(pid),
			supervises: SERVER_SCRIPTS.has(file)
		});
	}
	// `npm start` and the server it runs as its child (scripts/supervisor.mjs) are one server: the child, with the
	// supervisor that keeps its socket (and the supervisor's environment, which hands no socket down).
	const supervisors = new Map(servers.filter((s) => s.supervises).map((s) => [s.pid, s]));
	const supervised = new Set();
	const merged = [];
	for (const { parent, supervises, ...server } of servers) {
		const supervisor = supervisors.get(parent);
		if (supervisor) {
			supervised.add(parent);
			merged.push({ ...server, env: supervisor.env, supervisor: parent });
		} else if (!supervises) merged.push(server);
	}
	// `npm start` with no child runs the server in itself: an older build (before scripts/supervisor.mjs), or an older
	// start.mjs still running since before `git pull`. It is stopped as a server, with SIGTERM.
	for (const [pid, { parent: _, supervises: __, ...server }] of supervisors)
		if (!supervised.has(pid)) merged.push(server);
	return merged;
}

/** A process's parent, from /proc/<pid>/stat, or null. */
function parentOf(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return null;
	}
}

/** When a process started, in ms since the epoch (/proc/<pid>/stat's start time after boot), or null. */
function startTimeOf(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The fields after the command name, which is in parentheses and may hold spaces.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const ticksAfterBoot = Number(fields[19]);
		const bootedAt = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
		const ticksPerSecond = 100; // USER_HZ, 100 on every Linux that Node.js supports
		return bootedAt * 1000 + (ticksAfterBoot / ticksPerSecond) * 1000;
	} catch {
		return null;
	}
}

/** The environment a process was started with (not what it read from .env since), or null. */
function environmentOf(pid) {
	try {
		const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
		return Object.fromEntries(
			pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])
		);
	} catch {
		return null;
	}
}

function systemdUnitOf(pid) {
	try {
		const cgroup = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
		const unit = /\/([^/]+\.service)\s*$/m.exec(cgroup)?.[1];
		// A login session's own services (user@1000.service/…) are not the system's supervisor.
		return unit && !/^user@|^session-|^(gnome|vte|tmux|app-)/.test(unit) && !cgroup.includes('user.slice')
			? unit
			: null;
	} catch {
		return null;
	}
}

/**
 * Reads .env when there is one (ATELIER_ENV_FILE names another file) into process.env; variables already set in
 * the environment win. Returns the file read, or null.
 */
export function readSettings() {
	const envFile = process.env.ATELIER_ENV_FILE || path.join(root, '.env');
	if (!existsSync(envFile)) return null;
	process.loadEnvFile(envFile);
	return envFile;
}

/**
 * The environment a build's server or command runs with: this one (with .env already read), and DATA_DIR made
 * absolute by the rule config.ts applies — a build of 0.2.0 would otherwise resolve it from its own folder.
 */
export function serverEnvironment(env = process.env) {
	return { ...env, DATA_DIR: path.resolve(root, env.DATA_DIR || './data') };
}

/** The short commit of the working tree, or "unknown" (a copy without git). */
export function headCommit() {
	try {
		return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore']
		}).trim();
	} catch {
		return 'unknown';
	}
}
