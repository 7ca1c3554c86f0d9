// `npm run upgrade -- <archive>`: installs a release made by `npm run release` as a build beside the current one,
// so that a server too small to build still upgrades. Nothing is unpacked before the archive's SHA-256 matches the
// one written beside it; the build goes into builds/ only once whole; when node_modules does not hold what the
// release's package-lock.json names — compared with what is installed (node_modules/.package-lock.json), not with
// the working tree's lock file, which `git pull` or a copied lock may have changed while node_modules stayed as it
// was — the release's production packages are installed into the build's own folder (`npm ci --omit=dev` there),
// which Node.js resolves before the installation's node_modules. The installation's package.json, lock and
// node_modules are never changed: its `git status` stays clean, its build tools stay installed, and a failed
// upgrade leaves the folder as it was. The same archive installed twice is one build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	cpSync,
	createReadStream,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	utimesSync
} from 'node:fs';
import path from 'node:path';
import { root, stampOf } from './build-dir.mjs';
import { BUILDS, freeName, listBuilds, releaseOf } from './releases.mjs';

export class ArchiveError extends Error {}

/** The SHA-256 `<archive>.sha256` names (sha256sum's format: the hex digest first). */
function expectedDigest(archive) {
	const file = `${archive}.sha256`;
	if (!existsSync(file))
		throw new ArchiveError(
			`${path.basename(file)} is missing: copy it with the archive (npm run release wrote both).`
		);
	const digest = readFileSync(file, 'utf8').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
	if (!/^[0-9a-f]{64}$/.test(digest)) throw new ArchiveError(`${path.basename(file)} holds no SHA-256.`);
	return digest;
}

async function digestOf(file) {
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(file)) hash.update(chunk);
	return hash.digest('hex');
}

/**
 * Checks, unpacks and installs the release; returns its build's name in builds/. Refuses (ArchiveError) an archive
 * whose digest differs, or that holds no finished build; nothing is left behind then.
 */
export async function installReleaseArchive(archive) {
	if (!existsSync(archive)) throw new ArchiveError(`${archive}: no such file.`);
	const expected = expectedDigest(archive);
	const actual = await digestOf(archive);
	if (actual !== expected)
		throw new ArchiveError(
			`${path.basename(archive)}: its SHA-256 is ${actual}, not ${expected} as its .sha256 says — ` +
				'a copy cut short or altered. Nothing was unpacked.'
		);
	mkdirSync(BUILDS, { recursive: true });
	const partial = path.join(BUILDS, `.partial-${process.pid}`);
	rmSync(partial, { recursive: true, force: true });
	mkdirSync(partial);
	try {
		// Only the three names a release holds: nothing else of the archive is written anywhere.
		const tar = spawnSync(
			'tar',
			['-xzf', archive, '-C', partial, 'build', 'package.json', 'package-lock.json'],
			{
				stdio: ['ignore', 'ignore', 'inherit']
			}
		);
		const build = path.join(partial, 'build');
		if (tar.status !== 0 || !existsSync(path.join(build, 'server.js')) || !existsSync(stampOf(build)))
			throw new ArchiveError(
				`${path.basename(archive)} holds no finished build of Atelier. Nothing was installed.`
			);
		const release = releaseOf(build);
		if (!release.version || !release.commit)
			throw new ArchiveError(`${path.basename(archive)}: no release.json.`);

		const missing = packagesNotInstalled(path.join(partial, 'package-lock.json'));
		if (missing.length) {
			console.log(
				`upgrade: the release needs packages node_modules lacks (${missing.slice(0, 3).join(', ')}` +
					`${missing.length > 3 ? `, and ${missing.length - 3} more` : ''}): npm ci --omit=dev, into the ` +
					"build's own folder (the installation's package files and node_modules stay as they are)"
			);
			for (const file of ['package.json', 'package-lock.json'])
				cpSync(path.join(partial, file), path.join(build, file));
			// The installation's npm settings (a registry, a proxy) apply to this install as to its own.
			if (existsSync(path.join(root, '.npmrc')))
				cpSync(path.join(root, '.npmrc'), path.join(build, '.npmrc'));
			const ci = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
				cwd: build,
				stdio: 'inherit'
			});
			if (ci.status !== 0)
				throw new ArchiveError('npm ci failed: the site runs on, on its current build; nothing was changed.');
		}
		// Installed now: newer than the installation's sources, which an older `npm start` compares by date alone
		// (0.5.0's built its sources again when they were newer — back to the old version, after a reboot).
		const now = new Date();
		utimesSync(stampOf(build), now, now);
		// Installed already (the same archive again): that build, not a second copy named -2.
		const same = sameBuild(build, release);
		if (same) return same;
		const name = freeName(release);
		renameSync(build, path.join(BUILDS, name));
		return name;
	} finally {
		rmSync(partial, { recursive: true, force: true });
	}
}

/**
 * The packages a lock file names for production (`node_modules/…` entries, dev ones left out, as `--omit=dev`)
 * that node_modules does not hold at that version: read from npm's own record of what it installed,
 * node_modules/.package-lock.json. Every one is missing when there is no record.
 */
export function packagesNotInstalled(lockFile, modules = path.join(root, 'node_modules')) {
	const wanted = JSON.parse(readFileSync(lockFile, 'utf8')).packages ?? {};
	let installed = {};
	try {
		installed = JSON.parse(readFileSync(path.join(modules, '.package-lock.json'), 'utf8')).packages ?? {};
	} catch {
		// No record: nothing is known to be installed.
	}
	const missing = [];
	for (const [where, entry] of Object.entries(wanted)) {
		if (!where.startsWith('node_modules/') || entry.dev) continue;
		const have = installed[where];
		// An optional package is npm's to leave out (another platform's binary, or what only such a package needs):
		// wanted only when it is a platform package for this machine (sharp's libvips for linux-x64, say), or when
		// another version of it is installed.
		if (entry.optional && !have && !(entry.os || entry.cpu ? fitsThisMachine(entry) : false)) continue;
		const same = entry.link
			? have?.link && have.resolved === entry.resolved
			: have?.version === entry.version;
		if (!same || !existsSync(path.join(path.dirname(modules), where))) missing.push(where.slice(13));
	}
	return missing;
}

/** The build in builds/ that `build` is a copy of (the same release, built at the same moment), or null. */
function sameBuild(build, release) {
	const stamp = readFileSync(stampOf(build), 'utf8');
	for (const { dir, name } of listBuilds()) {
		const other = releaseOf(dir);
		if (other.version !== release.version || other.commit !== release.commit) continue;
		if (readFileSync(stampOf(dir), 'utf8') === stamp) return name;
	}
	return null;
}

/** Whether a package's `os`, `cpu` and `libc` fields (npm's, with `!` for « not ») admit this machine. */
function fitsThisMachine({ os, cpu, libc }) {
	const admits = (list, value) =>
		!list ||
		(list.some((item) => !item.startsWith('!')) ? list.includes(value) : !list.includes(`!${value}`));
	const glibc =
		process.platform === 'linux' && Boolean(process.report?.getReport().header.glibcVersionRuntime);
	const ourLibc = process.platform === 'linux' ? (glibc ? 'glibc' : 'musl') : undefined;
	return admits(os, process.platform) && admits(cpu, process.arch) && (!libc || admits(libc, ourLibc));
}
