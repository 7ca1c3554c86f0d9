// `npm run release [-- <folder>]`: a prebuilt release, for a server too small to build (a build needs ~1.8 GB of
// memory; `npm run upgrade -- <archive>` on the server needs none of that). Builds these sources beside the
// current build (never switching to it), then packs that build with the package.json and package-lock.json it was
// made with, and its own upgrader (upgrade.mjs, scripts/upgrader-bundle.mjs: an installation of any earlier release
// runs it from the archive), into `<folder>/atelier-<version>-<commit>.tar.gz` (default: dist/), and writes its SHA-256 beside it
// (`.sha256`, the format `sha256sum -c` reads), which the upgrade checks before it unpacks anything.
// Linux only, like the servers: the build's native packages are installed on the server, not packed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './build-dir.mjs';
import { listBuilds, releaseOf } from './releases.mjs';
import { bundleUpgrader, UPGRADER_ENTRY } from './upgrader-bundle.mjs';

const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? path.join(root, 'dist'));
const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--no-switch'], {
	cwd: root,
	stdio: 'inherit'
});
if (build.status !== 0) process.exit(build.status ?? 1);
const [made] = listBuilds();
const { version, commit } = releaseOf(made.dir);

mkdirSync(out, { recursive: true });
const stage = mkdtempSync(path.join(out, '.release-'));
try {
	cpSync(made.dir, path.join(stage, 'build'), { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		cpSync(path.join(root, file), path.join(stage, file));
	// Its own upgrader, for an installation whose scripts are older than archives (scripts/upgrader-bundle.mjs).
	await bundleUpgrader(path.join(stage, UPGRADER_ENTRY));
	const archive = path.join(out, `atelier-${version}-${commit}.tar.gz`);
	const tar = spawnSync(
		'tar',
		['-czf', archive, '-C', stage, 'build', 'package.json', 'package-lock.json', UPGRADER_ENTRY],
		{ stdio: 'inherit' }
	);
	if (tar.status !== 0) process.exit(1);
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(archive)) hash.update(chunk);
	writeFileSync(`${archive}.sha256`, `${hash.digest('hex')}  ${path.basename(archive)}\n`);
	console.log(
		`release: ${archive} and its .sha256. On the server: copy both, then \`npm run upgrade -- ${path.basename(archive)}\` ` +
			'(from an earlier release: docs/operations.md, « From an earlier release »).'
	);
} finally {
	rmSync(stage, { recursive: true, force: true });
}
