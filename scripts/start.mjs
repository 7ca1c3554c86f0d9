// `npm start`: reads .env when there is one (ATELIER_ENV_FILE names another file; variables already set in the
// environment win), builds when the current build is missing or older than the sources — into a folder of its own,
// never over a build a server is using (scripts/build.mjs) — then runs the production server, which applies
// migrations before it listens, as the child of a supervisor that keeps its socket (scripts/supervisor.mjs): SIGTERM
// or SIGINT to `npm start` stops it (npm passes the signal on to this process, which passes it to the server), and
// `npm run upgrade` replaces it while connections wait.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDir, buildState, root } from './build-dir.mjs';
import {
	backedUpFor,
	currentBuild,
	pinnedBuild,
	readSettings,
	releaseOf,
	serverEnvironment
} from './releases.mjs';
import { supervise } from './supervisor.mjs';

// First, as the server itself would (src/server/heap.ts says why): start again, as the same process, with the
// allocator's settings, V8's baseline compiler and the young generation's bound — here, before anything is printed
// twice (tests/static/allocator-settings.test.ts holds these settings and flags to heap.ts's).
const V8_FLAGS = ['--liftoff-only', '--max-semi-space-size=16'];
const missingFlags = V8_FLAGS.filter((flag) => !process.execArgv.includes(flag));
const ALLOCATOR_SETTINGS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' };
const allocator =
	process.platform === 'linux' && !!process.report.getReport().header.glibcVersionRuntime
		? Object.fromEntries(
				Object.entries(ALLOCATOR_SETTINGS).filter(([name]) => process.env[name] === undefined)
			)
		: {};
if ((Object.keys(allocator).length || missingFlags.length) && typeof process.execve === 'function')
	process.execve(
		process.execPath,
		[process.execPath, ...process.execArgv, ...missingFlags, ...process.argv.slice(1)],
		{ ...process.env, ...allocator }
	);

const envFile = readSettings();
if (envFile) console.log(`Settings read from ${path.relative(process.cwd(), envFile) || envFile}`);
const out = buildDir();
// After `npm run rollback`, the build it went back to is served as it is, although the sources are newer (they are
// still the release rolled back from): building them would undo the rollback. So is a build an upgrade installed
// from a release archive (made from other sources). The next `npm run upgrade` says otherwise.
const pinned = pinnedBuild();
// `--no-build` (the systemd unit, docs/atelier.service): the service's user cannot build, and sources newer than the
// build are normal between `git pull` and `npm run upgrade` — the current build is served as it is.
const noBuild = process.argv.includes('--no-build');
const state = pinned ? 'fresh' : buildState(out);
if (pinned)
	console.log(`Serving ${pinned.name}, ${pinned.why}; the sources are not built until \`npm run upgrade\`.`);
if (noBuild && state === 'missing') {
	console.error('No build to serve: its owner makes one with `npm run build` (or `npm run upgrade`).');
	process.exit(1);
}
if (state !== 'fresh' && !noBuild) {
	console.log(
		state === 'stale' ? 'Sources changed since the last build: building…' : 'No build yet: building…'
	);
	// In a process group of its own, so that a signal reaches vite too (the build waits for it synchronously).
	const build = spawn(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
		stdio: 'inherit',
		cwd: root,
		detached: true
	});
	// Stopped while it builds: the build stops too, rather than running on without anyone waiting for it.
	const forward = (signal) => process.kill(-build.pid, signal);
	process.on('SIGTERM', forward).on('SIGINT', forward);
	const [code, signal] = await new Promise((resolve) => build.on('exit', (...result) => resolve(result)));
	process.off('SIGTERM', forward).off('SIGINT', forward);
	if (signal) process.kill(process.pid, signal);
	if (code !== 0) process.exit(code ?? 1);
	if (currentBuild()?.name === null && buildState(out) !== 'fresh') {
		console.error(
			'The new build was not made current: a server runs from the build/ folder. Stop it first, or upgrade it ' +
				'with `npm run upgrade`.'
		);
		process.exit(1);
	}
}
// A relative DATA_DIR is the installation's data/, whichever build runs.
process.env.DATA_DIR = serverEnvironment().DATA_DIR;

// The server runs as a child on a socket this process keeps (scripts/supervisor.mjs): an upgrade or a rollback
// replaces it while connections wait. A build made before that (rolled back to) runs here, as it always did.
const inherits = (dir) => releaseOf(dir).socket === 'inherited';
// A PORT the server would refuse is left to it, which says so in words (src/lib/server/config.ts).
const port = Number(process.env.PORT || 3000);
if (inherits(out) && Number.isInteger(port) && port > 0 && port < 65536) {
	await supervise({
		host: process.env.HOST || '127.0.0.1',
		port,
		env: process.env,
		// The build current at each start: `npm run upgrade` changes it between two servers.
		current: () => ({
			entry: path.join(out, 'server.js'),
			inherits: inherits(out),
			backedUp: backedUpFor(path.basename(realpathSync(out)))
		})
	});
} else await import(pathToFileURL(path.join(out, 'server.js')).href);
