// Where the build to run is: `build` next to package.json — the link to the current build in builds/
// (scripts/releases.mjs) — or ATELIER_BUILD_DIR. `npm test` builds into TEST_BUILD_DIR (`node scripts/build.mjs
// --tests`), a folder of its own.
import { createHash } from 'node:crypto';
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

export const root = path.resolve(import.meta.dirname, '..');
export const TEST_BUILD_DIR = path.join(root, '.cache', 'test-build');

export function buildDir() {
	return path.resolve(root, process.env.ATELIER_BUILD_DIR || 'build');
}

/**
 * The operators' commands: one file each in src/server/commands/, the one list of them — scripts/build-server.mjs
 * bundles each as build/<name>.js and scripts/command.mjs runs them (`npm run <script>`, package.json;
 * tests/static/commands.test.ts holds the scripts to the folder). Their shared helpers are in src/server/cli/.
 */
export const commandNames = () =>
	readdirSync(path.join(root, 'src', 'server', 'commands'))
		.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
		.map((name) => name.slice(0, -'.ts'.length))
		.sort();

/** What a build is made from: a build older than any of these is stale. */
const SOURCES = [
	'src',
	'static',
	'drizzle',
	'svelte.config.js',
	'vite.config.ts',
	'package.json',
	'package-lock.json',
	'tsconfig.json'
];

/** @param {string} target @returns {number} */
function newestMtime(target) {
	if (!existsSync(target)) return 0;
	const stat = statSync(target);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
	return newest;
}

/**
 * What the sources are, by content (not by time): every file a build is made from, its path and bytes, and the
 * Node.js line that builds, and whether it is a test build (its waits differ: config.ts). Two trees with the same
 * digest make the same build (ATELIER_BUILD_CACHE, build.mjs).
 * The migrations are not in it: the bundle never reads them, and every build copies its tree's own (build.mjs), so
 * a tree that only adds a migration (the upgrade test's) is the same bundle.
 */
export function sourceDigest() {
	const hash = createHash('sha256')
		.update(`node ${process.versions.node.split('.')[0]}\0`)
		.update(process.env.ATELIER_TEST_BUILD === '1' ? 'test build\0' : '');
	/** @param {string} relative */
	const add = (relative) => {
		const full = path.join(root, relative);
		if (!existsSync(full)) return;
		if (statSync(full).isDirectory()) {
			for (const entry of readdirSync(full).sort()) add(path.join(relative, entry));
			return;
		}
		hash.update(`${relative}\0`).update(readFileSync(full)).update('\0');
	};
	for (const source of SOURCES) if (source !== 'drizzle') add(source);
	return hash.digest('hex');
}

/**
 * Keeps a finished build in `cache` under these sources' digest (whole or not at all; the 4 newest are kept): a
 * later build of the same sources with ATELIER_BUILD_CACHE=<cache> is this copy.
 * @param {string} build
 * @param {string} cache
 */
export function keepBuildInCache(build, cache) {
	const target = path.join(cache, sourceDigest());
	mkdirSync(cache, { recursive: true });
	const partial = `${target}.partial-${process.pid}`;
	cpSync(build, partial, { recursive: true });
	// Its migrations come from the tree that uses the copy.
	rmSync(path.join(partial, 'drizzle'), { recursive: true, force: true });
	writeFileSync(stampOf(partial), new Date().toISOString() + '\n');
	rmSync(target, { recursive: true, force: true });
	renameSync(partial, target);
	const kept = readdirSync(cache)
		.filter((name) => /^[0-9a-f]{64}$/.test(name))
		.map((name) => ({ name, at: statSync(path.join(cache, name)).mtimeMs }))
		.sort((a, b) => b.at - a.at);
	for (const old of kept.slice(4)) rmSync(path.join(cache, old.name), { recursive: true, force: true });
}

/** The stamp scripts/build.mjs writes last: a build without one did not finish. */
export const stampOf = (/** @type {string} */ out) => path.join(out, '.built-at');

/**
 * 'missing' (no finished build), 'stale' (a source changed since) or 'fresh'.
 * @param {string} out
 */
export function buildState(out) {
	const stamp = stampOf(out);
	if (!existsSync(path.join(out, 'server.js')) || !existsSync(stamp)) return 'missing';
	const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
	return sourcesAt > statSync(stamp).mtimeMs ? 'stale' : 'fresh';
}
