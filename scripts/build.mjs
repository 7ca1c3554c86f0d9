// `npm run build`: the SvelteKit app (vite + adapter-node), then our server entry around it and the migrations it
// ships, then a stamp that `npm start` compares with the sources' modification times.
//
// It builds into a folder of its own, builds/<version>-<commit> (scripts/releases.mjs), and then makes it current
// by switching the `build` link: a server running meanwhile keeps serving the build it started from until it is
// restarted, and the previous builds stay (`npm run rollback`). `--no-switch` leaves the current build as it is
// (`npm run upgrade` switches once the old server has stopped). ATELIER_BUILD_DIR builds into that folder instead
// (the image, the tests).
//
// It prints a short summary, not vite's 700 lines (`--verbose` for those; the whole log is kept in
// <out>/build.log). A warning about our own code (a file under src/) fails the build; what bundled dependencies
// say (their circular imports, their comments) is counted in the summary and left in the log.
// `--tests` builds into .cache/test-build (scripts/build-dir.mjs), beside a server that runs from build/.
// `--if-stale` builds only when the sources changed since the last build (CI's second test step reuses the first's).
// ATELIER_BUILD_CACHE=<folder> keeps each finished build there by the sources' digest, and a build of sources
// already built is that copy (with this tree's release.json and stamp): the upgrade test's trees, made anew on each
// pass from the same sources, build each release once.
import { spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import path from 'node:path';
import { asciiSources } from './ascii-sources.mjs';
import {
	buildDir as configuredBuildDir,
	buildState,
	keepBuildInCache,
	root,
	sourceDigest,
	stampOf,
	TEST_BUILD_DIR
} from './build-dir.mjs';
import {
	adoptFolder,
	BUILDS,
	currentBuild,
	freeName,
	headCommit,
	isReleaseCommit,
	pruneBuilds,
	runningServers,
	switchTo
} from './releases.mjs';

// A test build: its own folder, and the waits of the anti-abuse rules its browser tests may shorten (config.ts).
if (process.argv.includes('--tests')) {
	process.env.ATELIER_BUILD_DIR = TEST_BUILD_DIR;
	process.env.ATELIER_TEST_BUILD = '1';
}
const versioned = !process.env.ATELIER_BUILD_DIR;
const switching = versioned && !process.argv.includes('--no-switch');
if (process.argv.includes('--if-stale') && buildState(configuredBuildDir()) === 'fresh') {
	console.log(`build: ${path.relative(root, configuredBuildDir()) || '.'}/ is up to date`);
	process.exit(0);
}
// A versioned build is made under a name no server can be using, and renamed to its own once complete.
const buildDir = versioned ? path.join(BUILDS, `.partial-${process.pid}`) : configuredBuildDir();
if (versioned) {
	rmSync(buildDir, { recursive: true, force: true });
	mkdirSync(BUILDS, { recursive: true });
	process.env.ATELIER_BUILD_DIR = buildDir;
}
const verbose = process.argv.includes('--verbose');
const started = Date.now();
const cache = process.env.ATELIER_BUILD_CACHE ? path.resolve(process.env.ATELIER_BUILD_CACHE) : null;
const cached = cache ? path.join(cache, sourceDigest()) : null;
let fromDependencies = [];
if (cached && existsSync(stampOf(cached))) {
	rmSync(buildDir, { recursive: true, force: true });
	cpSync(cached, buildDir, { recursive: true });
	console.log(`build: these sources were built before (${path.basename(cached).slice(0, 12)}): copied`);
} else {
	fromDependencies = await bundle();
	if (cache) keepBuildInCache(buildDir, cache);
}
// Its own migrations (not part of the digest: a copy from the cache takes this tree's): a build started again later
// (a rollback) never applies a newer release's.
rmSync(path.join(buildDir, 'drizzle'), { recursive: true, force: true });
cpSync(path.join(root, 'drizzle'), path.join(buildDir, 'drizzle'), { recursive: true });

/** vite, our server entry and commands, the migrations, the embedded database's template: the build proper. */
async function bundle() {
	const vite = spawnSync(
		process.execPath,
		[path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
		{
			cwd: root,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			env: { ...process.env, ATELIER_BUILD_DIR: buildDir }
		}
	);
	const output = `${vite.stdout ?? ''}${vite.stderr ?? ''}`;
	if (verbose || vite.status !== 0) process.stdout.write(output);
	if (vite.status !== 0) {
		console.error(`build: vite failed (exit ${vite.status})`);
		process.exit(vite.status ?? 1);
	}

	const lines = output.split('\n');
	// Our files appear as src/… (relative) or <root>/src/… in a warning; dependencies' as node_modules/….
	const ours = lines.filter(
		(line) =>
			/warn|circular|deprecat|unused|a11y|cannot|could not/i.test(line) &&
			(line.includes(`${root}/src/`) || /(^|[\s"'(])src\//.test(line))
	);
	const fromDependencies = lines.filter(
		(line) =>
			/^Circular dependency|annotation that Rollup cannot interpret|could not be resolved|externalized for browser compatibility/.test(
				line
			) && !ours.includes(line)
	);
	if (ours.length) {
		console.error(ours.join('\n'));
		console.error(`build: ${ours.length} warning(s) about our own code; fix them (CONTRIBUTING.md)`);
		process.exit(1);
	}

	await import('./build-server.mjs');
	// The server's code in ASCII: V8 then keeps each module's source at one byte a character (ascii-sources.mjs).
	asciiSources(buildDir);
	// initdb for the embedded database, once here rather than on a server's first start (src/lib/server/db/index.ts).
	const template = spawnSync(
		process.execPath,
		[path.join(buildDir, 'embedded-template.js'), path.join(buildDir, 'embedded-database.tar.gz')],
		{ cwd: root, stdio: ['ignore', 'ignore', 'inherit'] }
	);
	if (template.status !== 0) {
		console.error('build: the embedded database template could not be made');
		process.exit(1);
	}
	writeFileSync(path.join(buildDir, 'build.log'), output);
	return fromDependencies;
}

// What /healthz, the start line and backups say of this build: the version and the commit it was built from.
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
// `socket`: its server listens on a socket handed down (src/server/inherited-socket.ts), which `npm start` keeps
// while one server replaces another (scripts/start.mjs); builds before it bind the port themselves.
const release = { version, commit: headCommit(), release: isReleaseCommit(version), socket: 'inherited' };
writeFileSync(path.join(buildDir, 'release.json'), JSON.stringify(release) + '\n');
writeFileSync(stampOf(buildDir), new Date().toISOString() + '\n');

let finalDir = buildDir;
let switchNote = '';
if (versioned) {
	const name = freeName(release);
	finalDir = path.join(BUILDS, name);
	renameSync(buildDir, finalDir);
	if (switching) switchNote = makeCurrent(name);
	pruneBuilds();
}

/** Switches `build` to the new build; a plain build/ folder (0.2.0 and before) is adopted first if nothing runs it. */
function makeCurrent(name) {
	if (currentBuild()?.name === null) {
		const servers = runningServers();
		if (servers.length)
			return (
				`; build/ is a folder a running server uses (pid ${servers.map((s) => s.pid).join(', ')}), left as it is: ` +
				'`npm run upgrade` makes the new build current'
			);
		adoptFolder();
	}
	switchTo(name);
	return '; now current (a running server keeps its own until restarted)';
}

function sizeOf(dir) {
	let bytes = 0;
	let files = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile()) continue;
		files += 1;
		bytes += statSync(path.join(entry.parentPath, entry.name)).size;
	}
	return { bytes, files };
}
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const client = sizeOf(path.join(finalDir, 'client'));
const server = sizeOf(path.join(finalDir, 'server'));
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
	`build: ${path.relative(process.cwd(), finalDir) || '.'}/ in ${seconds} s — server ${mb(server.bytes)}, ` +
		`client ${client.files} files (${mb(client.bytes)})` +
		switchNote +
		(fromDependencies.length
			? `; ${fromDependencies.length} notes from bundled dependencies in build.log`
			: '')
);
