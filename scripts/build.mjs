// `npm run build`: the SvelteKit app (vite + adapter-node), then our server entry around it, then a stamp that
// `npm start` compares with the sources' modification times.
//
// It prints a short summary, not vite's 700 lines (`--verbose` for those; the whole log is kept in
// <out>/build.log). A warning about our own code (a file under src/) fails the build; what bundled dependencies
// say (their circular imports, their comments) is counted in the summary and left in the log.
// `--tests` builds into .cache/test-build (scripts/build-dir.mjs), beside a server that runs from build/.
// `--if-stale` builds only when the sources changed since the last build (CI's second test step reuses the first's).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildDir as configuredBuildDir, buildState, root, stampOf, TEST_BUILD_DIR } from './build-dir.mjs';

if (process.argv.includes('--tests')) process.env.ATELIER_BUILD_DIR = TEST_BUILD_DIR;
const buildDir = configuredBuildDir();
if (process.argv.includes('--if-stale') && buildState(buildDir) === 'fresh') {
	console.log(`build: ${path.relative(root, buildDir) || '.'}/ is up to date`);
	process.exit(0);
}
const verbose = process.argv.includes('--verbose');
const started = Date.now();
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
writeFileSync(path.join(buildDir, 'build.log'), output);
// What /healthz, the start line and backups say of this build: the version and the commit it was built from.
const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' });
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
writeFileSync(
	path.join(buildDir, 'release.json'),
	JSON.stringify({ version, commit: commit.status === 0 ? commit.stdout.trim() : 'unknown' }) + '\n'
);
writeFileSync(stampOf(buildDir), new Date().toISOString() + '\n');

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
const client = sizeOf(path.join(buildDir, 'client'));
const server = sizeOf(path.join(buildDir, 'server'));
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
	`build: ${path.relative(process.cwd(), buildDir) || '.'}/ in ${seconds} s — server ${mb(server.bytes)}, ` +
		`client ${client.files} files (${mb(client.bytes)})` +
		(fromDependencies.length
			? `; ${fromDependencies.length} notes from bundled dependencies in build.log`
			: '')
);
