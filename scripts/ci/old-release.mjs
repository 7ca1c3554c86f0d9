// The release the upgrade test upgrades from (tests/e2e/operations/upgrade.e2e.ts): its sources (git archive) and
// its build, made once per machine in the system's temporary folder, on this clone's node_modules. The test makes
// it when it is not there; `node scripts/ci/old-release.mjs` makes it ahead, and CI does so while the container
// image builds, when a core is idle, rather than inside the browser tests, where its build took a core from the
// other worker for two minutes (issue « The house, part 4 », point 4).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** 0.2.0 on main: the last release that built into a plain build/ folder. */
export const OLD_RELEASE = 'dfea3f1df234';
const repo = path.resolve(import.meta.dirname, '..', '..');

/** Whether the old release's commit is in this clone (a shallow clone does not have it). */
export const oldReleaseKnown = () =>
	spawnSync('git', ['cat-file', '-e', `${OLD_RELEASE}^{commit}`], { cwd: repo }).status === 0;

/** The environment of every process the upgrade test runs: this one's, without what points at the tests' build. */
export function baseEnvironment() {
	const env = { ...process.env };
	delete env.ATELIER_BUILD_DIR;
	delete env.E2E_BASE_URL;
	return env;
}

/**
 * Points `tree`'s node_modules at this clone's, whichever clone pointed it before.
 * @param {string} tree
 */
export function useOurPackages(tree) {
	const link = path.join(tree, 'node_modules');
	const ours = path.join(repo, 'node_modules');
	// The folder is the machine's, the packages a clone's: a clone since deleted (CI's, a checkout in /tmp) left a
	// link to nothing, and 0.2.0's server then died on its first import.
	if (lstatSync(link, { throwIfNoEntry: false }) && readlinkSync(link) === ours) return;
	rmSync(link, { force: true });
	symlinkSync(ours, link);
}

/**
 * @param {import('node:child_process').SpawnSyncReturns<string | Buffer>} result
 * @param {string} what
 */
function mustSucceed(result, what) {
	if (result.status !== 0)
		throw new Error(`${what} exited ${result.status}:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
}

/** The old release's folder, sources and build, made now if no earlier run made it. */
export function oldRelease() {
	const dir = path.join(tmpdir(), `atelier-upgrade-e2e-${OLD_RELEASE}`);
	if (existsSync(path.join(dir, 'build', '.built-at'))) {
		useOurPackages(dir);
		return dir;
	}
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const archive = spawnSync('git', ['archive', OLD_RELEASE], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
	mustSucceed(archive, `git archive ${OLD_RELEASE}`);
	mustSucceed(spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout }), 'tar -x');
	useOurPackages(dir);
	const build = spawnSync(process.execPath, ['scripts/build.mjs'], {
		cwd: dir,
		env: baseEnvironment(),
		encoding: 'utf8'
	});
	mustSucceed(build, `the build of ${OLD_RELEASE}`);
	return dir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	if (!oldReleaseKnown()) {
		console.log(`old release: ${OLD_RELEASE} is not in this clone (shallow); the upgrade test will skip`);
	} else {
		const started = Date.now();
		console.log(`old release: ${oldRelease()} (${Math.round((Date.now() - started) / 1000)} s)`);
	}
}
