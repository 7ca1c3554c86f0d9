/**
 * `npm run upgrade` and `npm run rollback` take the installation's lock (scripts/releases.mjs, builds/operation.lock):
 * one at a time, a second one refused before it stops or changes anything; a lock whose process is gone is taken
 * over. A rollback stays rolled back: `npm start` serves the build it went back to, sources newer or not, and
 * `npm run rollback -- --list` says what is kept. Run on a copy of the scripts in a folder of their own (their root is the folder above them), so that
 * nothing here can touch this checkout's builds.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let tree: string;
const cleanup: string[] = [];
let lock: string;

beforeAll(() => {
	tree = mkdtempSync(path.join(tmpdir(), 'atelier-lock-'));
	cpSync(path.join(import.meta.dirname, '..', '..', 'scripts'), path.join(tree, 'scripts'), {
		recursive: true
	});
	writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: 'atelier', version: '0.0.0' }));
	mkdirSync(path.join(tree, 'builds'));
	lock = path.join(tree, 'builds', 'operation.lock');
});
afterAll(() => {
	rmSync(tree, { recursive: true, force: true });
	for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

const run = (script: string, args: string[] = []) =>
	spawnSync(process.execPath, [path.join(tree, 'scripts', script), ...args], {
		cwd: tree,
		encoding: 'utf8',
		env: { PATH: process.env.PATH, HOME: tree },
		timeout: 30_000
	});

describe('upgrade and rollback take a lock', () => {
	it('while another one runs, both are refused and change nothing', () => {
		const holder = { pid: process.pid, what: 'upgrade', since: '2026-11-27T10:00:00.000Z' };
		writeFileSync(lock, JSON.stringify(holder));
		writeFileSync(path.join(tree, 'builds', 'last-upgrade.json'), '{"from":"a","to":"b"}\n');
		for (const script of ['upgrade.mjs', 'rollback.mjs']) {
			const refused = run(script);
			expect(refused.status, refused.stderr).toBe(1);
			expect(refused.stderr).toContain('refused — another upgrade or rollback is running');
			expect(refused.stderr).toContain(`process ${process.pid}`);
			expect(JSON.parse(readFileSync(lock, 'utf8'))).toEqual(holder);
		}
		expect(readFileSync(path.join(tree, 'builds', 'last-upgrade.json'), 'utf8')).toBe(
			'{"from":"a","to":"b"}\n'
		);
		rmSync(lock);
	});

	it('a lock whose process is gone is taken over, and released when the command ends, however it ends', async () => {
		// A process that has exited: its pid names nobody now.
		const gone = spawn(process.execPath, ['-e', '0']);
		await new Promise((resolve) => gone.once('exit', resolve));
		writeFileSync(
			lock,
			JSON.stringify({ pid: gone.pid, what: 'upgrade', since: '2026-11-27T10:00:00.000Z' })
		);
		const rollback = run('rollback.mjs');
		// It went past the lock, to its own first check (the record above names builds that do not exist).
		expect(rollback.stderr).not.toContain('refused');
		expect(rollback.stderr).toContain('is gone');
		expect(existsSync(lock)).toBe(false);
	});
});

/** A finished build of `version` in builds/, made an hour ago; its server says which it is, and exits. */
function fakeBuild(version: string) {
	const dir = path.join(tree, 'builds', `${version}-0123456789ab`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'server.js'), `console.log('served by ${version}');\n`);
	writeFileSync(path.join(dir, 'release.json'), JSON.stringify({ version, commit: '0123456789ab' }));
	const stamp = path.join(dir, '.built-at');
	writeFileSync(stamp, 'then\n');
	const hourAgo = new Date(Date.now() - 3_600_000);
	utimesSync(stamp, hourAgo, hourAgo);
	return path.basename(dir);
}

describe('a rollback stays rolled back', () => {
	it('npm start serves the build the rollback went back to, though the sources are newer; --list says so', () => {
		const older = fakeBuild('0.1.0');
		const newer = fakeBuild('0.2.0');
		symlinkSync(path.join('builds', older), path.join(tree, 'build'));
		// The sources are the newer release's: newer than the build served.
		writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: 'atelier', version: '0.2.0' }));
		writeFileSync(
			path.join(tree, 'builds', 'last-upgrade.json'),
			JSON.stringify({ from: older, to: newer, rolledBackAt: '2026-11-27T10:00:00.000Z', migrated: false })
		);
		const start = run('start.mjs');
		expect(start.stdout).toContain(`Serving ${older}, which \`npm run rollback\` went back to`);
		expect(start.stdout).toContain('served by 0.1.0');
		expect(start.stdout).not.toContain('building');

		const list = run('rollback.mjs', ['--list']);
		expect(list.status, list.stderr).toBe(0);
		expect(list.stdout).toContain(`0.1.0 (0123456789ab)  builds/${older}  — current`);
		expect(list.stdout).toContain(`0.2.0 (0123456789ab)  builds/${newer}  — rolled back from`);
		expect(list.stdout).toContain('nothing to roll back');

		// An upgrade since (its record has no rollback): the pin is gone, the stale sources are built again.
		writeFileSync(
			path.join(tree, 'builds', 'last-upgrade.json'),
			JSON.stringify({ from: older, to: newer, migrated: false })
		);
		const after = run('start.mjs');
		expect(after.stdout).toContain('Sources changed since the last build: building');
		expect(run('rollback.mjs', ['--list']).stdout).toContain('what `npm run rollback` goes back to');
	});
});

describe('a release archive (npm run release, then npm run upgrade -- <archive>)', () => {
	/** An installation with a current build of 0.1.0, and an archive of 0.3.0 as `npm run release` makes it. */
	function installationAndArchive() {
		const site = mkdtempSync(path.join(tmpdir(), 'atelier-archive-'));
		cleanup.push(site);
		cpSync(path.join(import.meta.dirname, '..', '..', 'scripts'), path.join(site, 'scripts'), {
			recursive: true
		});
		for (const file of ['package.json', 'package-lock.json']) writeFileSync(path.join(site, file), '{}\n');
		const current = path.join(site, 'builds', '0.1.0-0123456789ab');
		mkdirSync(current, { recursive: true });
		writeFileSync(path.join(current, 'server.js'), '');
		writeFileSync(
			path.join(current, 'release.json'),
			JSON.stringify({ version: '0.1.0', commit: '0123456789ab' })
		);
		writeFileSync(path.join(current, '.built-at'), 'then\n');
		symlinkSync(path.join('builds', '0.1.0-0123456789ab'), path.join(site, 'build'));

		const stage = path.join(site, 'stage');
		const build = path.join(stage, 'build');
		mkdirSync(path.join(build, 'drizzle', 'meta'), { recursive: true });
		writeFileSync(path.join(build, 'drizzle', 'meta', '_journal.json'), '{"entries":[]}');
		writeFileSync(
			path.join(build, 'release.json'),
			JSON.stringify({ version: '0.3.0', commit: 'fedcba987654' })
		);
		writeFileSync(path.join(build, '.built-at'), 'now\n');
		// Its server answers /healthz as 0.3.0; its backup says what it wrote.
		writeFileSync(
			path.join(build, 'server.js'),
			"require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.3.0', commit: 'fedcba987654' }))).listen(Number(process.env.PORT), '127.0.0.1');\n"
		);
		writeFileSync(
			path.join(build, 'backup.js'),
			"require('node:fs').writeFileSync(process.argv.at(-1), 'backup'); console.log(JSON.stringify({ file: process.argv.at(-1), migrations: 0 }));\n"
		);
		for (const file of ['package.json', 'package-lock.json']) writeFileSync(path.join(stage, file), '{}\n');
		const archive = path.join(site, 'atelier-0.3.0-fedcba987654.tar.gz');
		execFileSync('tar', ['-czf', archive, '-C', stage, 'build', 'package.json', 'package-lock.json']);
		const digest = createHash('sha256').update(readFileSync(archive)).digest('hex');
		writeFileSync(`${archive}.sha256`, `${digest}  ${path.basename(archive)}\n`);
		return { site, archive, digest };
	}

	const upgrade = (site: string, args: string[], port = 1) =>
		spawnSync(process.execPath, [path.join(site, 'scripts', 'upgrade.mjs'), ...args], {
			cwd: site,
			encoding: 'utf8',
			env: { PATH: process.env.PATH, HOME: site, PORT: String(port), HOST: '127.0.0.1' },
			timeout: 60_000
		});

	it('an archive whose SHA-256 is not its .sha256’s is refused before anything is unpacked', () => {
		const { site, archive, digest } = installationAndArchive();
		writeFileSync(`${archive}.sha256`, `${digest.replace(/^./, (c) => (c === '0' ? '1' : '0'))}  x\n`);
		const refused = upgrade(site, [archive]);
		expect(refused.status).toBe(1);
		expect(refused.stderr).toContain('upgrade: refused');
		expect(refused.stderr).toContain('Nothing was unpacked');
		expect(existsSync(path.join(site, 'builds', '0.3.0-fedcba987654'))).toBe(false);
		rmSync(`${archive}.sha256`);
		expect(upgrade(site, [archive]).stderr).toContain('.sha256 is missing');
	});

	it('a good one becomes the current build without building, runs detached, and npm start keeps it', async () => {
		const { site, archive } = installationAndArchive();
		const port = 20_000 + (process.pid % 20_000);
		const done = upgrade(
			site,
			[path.basename(archive)].map((name) => path.join(site, name)),
			port
		);
		const pid = Number(/pid (\d+)\), detached/.exec(done.stdout)?.[1]);
		try {
			expect(done.status, done.stderr).toBe(0);
			expect(done.stdout).toContain('upgrade: 0.1.0 (0123456789ab) → 0.3.0 (fedcba987654)');
			expect(done.stdout).not.toContain('build:');
			expect(JSON.parse(readFileSync(path.join(site, 'builds', 'last-upgrade.json'), 'utf8'))).toMatchObject({
				from: '0.1.0-0123456789ab',
				to: '0.3.0-fedcba987654',
				archive: path.basename(archive)
			});
			const served = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
			expect(served).toMatchObject({ version: '0.3.0' });
		} finally {
			if (pid) process.kill(pid, 'SIGTERM');
		}
		// Its sources are not these: npm start serves the installed build, and builds nothing.
		const start = spawnSync(process.execPath, [path.join(site, 'scripts', 'start.mjs')], {
			cwd: site,
			encoding: 'utf8',
			env: { PATH: process.env.PATH, HOME: site, PORT: String(port + 1) },
			timeout: 5_000
		});
		expect(start.stdout).toContain('Serving 0.3.0-fedcba987654, which `npm run upgrade` installed from');
	});
});
