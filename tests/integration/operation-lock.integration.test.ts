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

/** 0.5.0 on main: the last release whose archive path compared lock files, not what node_modules holds. */
const RELEASE_0_5_0 = '04f86b8';

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
		expect(list.stdout).toContain(`0.1.0+0123456789ab  builds/${older}  — current`);
		expect(list.stdout).toContain(`0.2.0+0123456789ab  builds/${newer}  — rolled back from`);
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
	function installationAndArchive({
		lock = '{}\n',
		packageJson = '{}\n',
		server = "require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.3.0', commit: 'fedcba987654' }))).listen(Number(process.env.PORT), '127.0.0.1');\n",
		release = { version: '0.3.0', commit: 'fedcba987654' } as Record<string, unknown>,
		scriptsOf = null as string | null
	} = {}) {
		const site = mkdtempSync(path.join(tmpdir(), 'atelier-archive-'));
		cleanup.push(site);
		if (scriptsOf) {
			// The scripts of a released version, as its server has them (git archive of its commit).
			const scripts = spawnSync('git', ['archive', scriptsOf, 'scripts'], { maxBuffer: 64 * 1024 * 1024 });
			expect(scripts.status, String(scripts.stderr)).toBe(0);
			expect(spawnSync('tar', ['-x', '-C', site], { input: scripts.stdout }).status).toBe(0);
		} else
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
		writeFileSync(path.join(build, 'release.json'), JSON.stringify(release));
		writeFileSync(path.join(build, '.built-at'), 'now\n');
		// Its server answers /healthz as 0.3.0; its backup says what it wrote.
		writeFileSync(path.join(build, 'server.js'), server);
		writeFileSync(
			path.join(build, 'backup.js'),
			"require('node:fs').writeFileSync(process.argv.at(-1), 'backup'); console.log(JSON.stringify({ file: process.argv.at(-1), migrations: 0 }));\n"
		);
		writeFileSync(path.join(stage, 'package.json'), packageJson);
		writeFileSync(path.join(stage, 'package-lock.json'), lock);
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
			expect(done.stdout).toContain('upgrade: 0.1.0+0123456789ab → 0.3.0+fedcba987654');
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
	/** A release whose server needs the package `probe` (a local one: npm installs it without the network). */
	const needingProbe = (scriptsOf: string | null = null) => {
		const lock = JSON.stringify({
			name: 'atelier',
			lockfileVersion: 3,
			requires: true,
			packages: {
				'': { name: 'atelier', dependencies: { probe: 'file:probe' } },
				'node_modules/probe': { resolved: 'probe', link: true },
				probe: { version: '1.0.0' }
			}
		});
		const packageJson = JSON.stringify({
			name: 'atelier',
			scripts: { upgrade: 'node scripts/upgrade.mjs' },
			dependencies: { probe: 'file:probe' }
		});
		const server =
			"require('probe'); require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.3.0', commit: 'fedcba987654' }))).listen(Number(process.env.PORT), '127.0.0.1');\n";
		const made = installationAndArchive({ lock, packageJson, server, scriptsOf });
		mkdirSync(path.join(made.site, 'probe'));
		writeFileSync(
			path.join(made.site, 'probe', 'package.json'),
			JSON.stringify({ name: 'probe', version: '1.0.0', main: 'index.js' })
		);
		writeFileSync(path.join(made.site, 'probe', 'index.js'), 'module.exports = 1;\n');
		// What a `git pull` (or a lock copied by hand) leaves: the working tree's lock is already the release's,
		// while node_modules was never installed from it.
		writeFileSync(path.join(made.site, 'package-lock.json'), lock);
		writeFileSync(path.join(made.site, 'package.json'), packageJson);
		return made;
	};

	it('installs the packages node_modules lacks, though the working tree’s lock is already the release’s (0.5.0 skipped them, and its server died on a missing package)', async () => {
		const { site, archive } = needingProbe();
		const port = 21_000 + (process.pid % 20_000);
		const done = upgrade(site, [archive], port);
		const pid = Number(/pid (\d+)\), detached/.exec(done.stdout)?.[1]);
		try {
			expect(done.status, done.stdout + done.stderr).toBe(0);
			expect(done.stdout).toContain(
				'the release needs packages node_modules lacks (probe): npm ci --omit=dev'
			);
			expect(existsSync(path.join(site, 'node_modules', 'probe', 'index.js'))).toBe(true);
			expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({
				version: '0.3.0'
			});
		} finally {
			if (pid) process.kill(pid, 'SIGTERM');
		}
	});

	it('a 0.5.0 server (its own scripts, which skipped the packages) moves to the archive path with the one command operations.md gives', async () => {
		const { site, archive } = needingProbe(RELEASE_0_5_0);
		const port = 24_000 + (process.pid % 20_000);
		const command = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8')
			.match(/<!-- from 0\.5\.0 -->\n+```sh\n(.+)\n```/)![1]!
			.replaceAll('atelier-<version>-<commit>.tar.gz', path.basename(archive));
		const done = spawnSync('sh', ['-c', command], {
			cwd: site,
			encoding: 'utf8',
			env: { PATH: process.env.PATH, HOME: site, PORT: String(port), HOST: '127.0.0.1' },
			timeout: 120_000
		});
		const pid = Number(/pid (\d+)\), detached/.exec(done.stdout)?.[1]);
		try {
			expect(done.status, `${command}\n${done.stdout}${done.stderr}${done.error ?? ''}`).toBe(0);
			expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({
				version: '0.3.0'
			});
		} finally {
			if (pid) process.kill(pid, 'SIGTERM');
		}
	});

	it('a build whose server never answered is removed once the previous one serves again: rollback --list never offers it', () => {
		const { site, archive } = installationAndArchive({ server: 'process.exit(3);\n' });
		// The previous build serves again: a server of its own that answers as 0.1.0.
		writeFileSync(
			path.join(site, 'builds', '0.1.0-0123456789ab', 'server.js'),
			"require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.1.0', commit: '0123456789ab' }))).listen(Number(process.env.PORT), '127.0.0.1');\n"
		);
		const port = 22_000 + (process.pid % 20_000);
		const failed = upgrade(site, [archive], port);
		const pid = Number(/pid (\d+)\), detached/.exec(failed.stdout + failed.stderr)?.[1]);
		try {
			expect(failed.status).toBe(1);
			expect(failed.stderr).toContain('upgrade: builds/0.3.0-fedcba987654 never served: removed.');
			expect(failed.stderr).toContain('the previous version runs again');
			expect(existsSync(path.join(site, 'builds', '0.3.0-fedcba987654'))).toBe(false);
			const list = spawnSync(process.execPath, [path.join(site, 'scripts', 'rollback.mjs'), '--list'], {
				cwd: site,
				encoding: 'utf8',
				env: { PATH: process.env.PATH, HOME: site }
			});
			expect(list.stdout).toContain('0.1.0+0123456789ab  builds/0.1.0-0123456789ab  — current');
			expect(list.stdout).not.toContain('0.3.0');
		} finally {
			if (pid) process.kill(pid, 'SIGTERM');
			for (const server of spawnSync('pgrep', ['-f', path.join(site, 'build')], { encoding: 'utf8' })
				.stdout.split('\n')
				.filter(Boolean))
				process.kill(Number(server), 'SIGTERM');
		}
	});

	it('the same archive installed twice is one build; a tagged release says its version alone', async () => {
		const { site, archive } = installationAndArchive({
			release: { version: '0.3.0', commit: 'fedcba987654', release: true }
		});
		const port = 23_000 + (process.pid % 20_000);
		const first = upgrade(site, [archive], port);
		const firstPid = Number(/pid (\d+)\), detached/.exec(first.stdout)?.[1]);
		if (firstPid) process.kill(firstPid, 'SIGTERM');
		expect(first.status, first.stderr).toBe(0);
		expect(first.stdout).toContain('upgrade: 0.1.0+0123456789ab → 0.3.0\n');
		// The first server gone (and its lock with it): waited for, not slept on.
		const alive = (pid: number) => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		if (firstPid) await expect.poll(() => alive(firstPid), { timeout: 30_000 }).toBe(false);
		const again = upgrade(site, [archive], port);
		const againPid = Number(/pid (\d+)\), detached/.exec(again.stdout)?.[1]);
		if (againPid) process.kill(againPid, 'SIGTERM');
		const builds = spawnSync('ls', [path.join(site, 'builds')], { encoding: 'utf8' }).stdout.split('\n');
		expect(builds.filter((name) => name.startsWith('0.3.0'))).toEqual(['0.3.0-fedcba987654']);
	});
});
