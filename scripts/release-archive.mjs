// `npm run upgrade -- <archive>`: installs a release made by `npm run release` as a build beside the current one,
// so that a server too small to build still upgrades. Nothing is unpacked before the archive's SHA-256 matches the
// one written beside it; the build goes into builds/ only once whole; the production packages are installed with
// `npm ci --omit=dev` only when the release's package-lock.json differs from the installation's.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { root, stampOf } from './build-dir.mjs';
import { BUILDS, freeName, releaseOf } from './releases.mjs';

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

		const lock = (dir) => readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
		if (!existsSync(path.join(root, 'package-lock.json')) || lock(partial) !== lock(root)) {
			console.log('upgrade: the release needs other packages: npm ci --omit=dev');
			for (const file of ['package.json', 'package-lock.json'])
				cpSync(path.join(partial, file), path.join(root, file));
			const ci = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
				cwd: root,
				stdio: 'inherit'
			});
			if (ci.status !== 0) throw new ArchiveError('npm ci failed: the site runs on, on its current build.');
		}
		const name = freeName(release);
		renameSync(build, path.join(BUILDS, name));
		return name;
	} finally {
		rmSync(partial, { recursive: true, force: true });
	}
}
