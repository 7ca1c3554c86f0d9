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
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	utimesSync,
	writeFileSync
} from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleUpgrader } from '../../scripts/upgrader-bundle.mjs';

/** 0.5.0 as the CHANGELOG names it: its upgrade takes no archive at all. */
const RELEASE_0_5_0 = 'a66e130';
/** 0.5.0 on main: the last release whose archive path compared lock files, not what node_modules holds. */
const RELEASE_0_5_0_ON_MAIN = '04f86b8';
/** The upgrader a release archive carries (scripts/upgrader-bundle.mjs), bundled once for every archive here. */
let upgrader: string;

let tree: string;
const cleanup: string[] = [];
let lock: string;

beforeAll(async () => {
	tree = mkdtempSync(path.join(tmpdir(), 'atelier-lock-'));
	upgrader = path.join(tree, 'upgrade.mjs');
	await bundleUpgrader(upgrader);
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

/**
 * Ports the system has free now, distinct (all held open while they are chosen): a port derived from the pid could be
 * one another test or an outgoing connection holds.
 */
async function freePorts(count: number): Promise<number[]> {
	const servers = await Promise.all(
		Array.from(
			{ length: count },
			() =>
				new Promise<Server>((resolve, reject) => {
					const server = createServer();
					server.once('error', reject).listen(0, '127.0.0.1', () => resolve(server));
				})
		)
	);
	const ports = servers.map((server) => (server.address() as AddressInfo).port);
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
	return ports;
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

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

// Each test runs an upgrade and two or three servers, one after the other: a minute is their room on a busy machine.
describe(
	'a release archive (npm run release, then npm run upgrade -- <archive>)',
	{ timeout: 120_000 },
	() => {
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
			writeFileSync(path.join(site, 'package.json'), '{ "name": "atelier" }\n');
			writeFileSync(path.join(site, 'package-lock.json'), '{}\n');
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
			cpSync(upgrader, path.join(stage, 'upgrade.mjs'));
			const archive = path.join(site, 'atelier-0.3.0-fedcba987654.tar.gz');
			execFileSync('tar', [
				'-czf',
				archive,
				'-C',
				stage,
				'build',
				'package.json',
				'package-lock.json',
				'upgrade.mjs'
			]);
			rmSync(stage, { recursive: true });
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
			const [port, later] = await freePorts(2);
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
				expect(
					JSON.parse(readFileSync(path.join(site, 'builds', 'last-upgrade.json'), 'utf8'))
				).toMatchObject({
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
				env: { PATH: process.env.PATH, HOME: site, PORT: String(later) },
				timeout: 5_000
			});
			expect(start.stdout).toContain('Serving 0.3.0-fedcba987654, which `npm run upgrade` installed from');
		});
		/**
		 * A release whose server needs the package `probe` (a local tarball: npm installs it without the network), and
		 * an installation whose node_modules lacks it.
		 */
		const needingProbe = (scriptsOf: string | null = null, server?: string) => {
			// Resolved from the build's folder as npm ci runs there (builds/.partial-<pid>/build): the site's own folder.
			const tarball = 'file:../../../probe-1.0.0.tgz';
			const lock = JSON.stringify({
				name: 'atelier',
				lockfileVersion: 3,
				requires: true,
				packages: {
					'': { name: 'atelier', dependencies: { probe: tarball } },
					'node_modules/probe': { version: '1.0.0', resolved: tarball }
				}
			});
			const packageJson = JSON.stringify({
				name: 'atelier',
				scripts: { upgrade: 'node scripts/upgrade.mjs' },
				dependencies: { probe: tarball }
			});
			server ??=
				"require('probe'); require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.3.0', commit: 'fedcba987654' }))).listen(Number(process.env.PORT), '127.0.0.1');\n";
			const made = installationAndArchive({ lock, packageJson, server, scriptsOf });
			const probe = path.join(made.site, '.probe', 'package');
			mkdirSync(probe, { recursive: true });
			writeFileSync(
				path.join(probe, 'package.json'),
				JSON.stringify({ name: 'probe', version: '1.0.0', main: 'index.js' })
			);
			writeFileSync(path.join(probe, 'index.js'), 'module.exports = 1;\n');
			execFileSync('tar', [
				'-czf',
				path.join(made.site, 'probe-1.0.0.tgz'),
				'-C',
				path.dirname(probe),
				'package'
			]);
			rmSync(path.dirname(probe), { recursive: true });
			// What a `git pull` (or a lock copied by hand) leaves: the working tree's lock is already the release's,
			// while node_modules was never installed from it.
			writeFileSync(path.join(made.site, 'package-lock.json'), lock);
			writeFileSync(path.join(made.site, 'package.json'), packageJson);
			// Its build was made from its sources, so is newer than they are: an older `npm start` serves it as it is.
			// (The sources dated an hour ago: a stamp dated `new Date()` just after writing them can be older by the
			// fraction of a millisecond a Date drops — the build then « stale », and 0.5.0's start building it.)
			const hourAgo = new Date(Date.now() - 3_600_000);
			for (const file of ['package.json', 'package-lock.json'])
				utimesSync(path.join(made.site, file), hourAgo, hourAgo);
			const now = new Date();
			utimesSync(path.join(made.site, 'builds', '0.1.0-0123456789ab', '.built-at'), now, now);
			return made;
		};

		/**
		 * Every file of the installation but what it makes as it runs (builds/, the build link, logs/, data/), and npm’s cache
		 * (the tests' HOME is the site's folder): what `git status` would compare.
		 */
		const treeOf = (site: string) =>
			spawnSync(
				'sh',
				[
					'-c',
					'find . \\( -path ./builds -o -path ./build -o -path ./logs -o -path ./data -o -path ./.npm \\) -prune -o -type f -print0 | sort -z | xargs -0 sha256sum'
				],
				{ cwd: site, encoding: 'utf8' }
			).stdout;

		it('installs the packages node_modules lacks into the build’s own folder, though the working tree’s lock is already the release’s (0.5.0 skipped them, and its server died on a missing package); the installation’s files stay as they were', async () => {
			const { site, archive } = needingProbe();
			const before = treeOf(site);
			const [port] = await freePorts(1);
			const done = upgrade(site, [archive], port);
			const pid = Number(/pid (\d+)\), detached/.exec(done.stdout)?.[1]);
			try {
				expect(done.status, done.stdout + done.stderr).toBe(0);
				expect(done.stdout).toContain(
					'the release needs packages node_modules lacks (probe): npm ci --omit=dev, into the build'
				);
				expect(
					existsSync(path.join(site, 'builds', '0.3.0-fedcba987654', 'node_modules', 'probe', 'index.js'))
				).toBe(true);
				expect(existsSync(path.join(site, 'node_modules'))).toBe(false);
				expect(treeOf(site)).toBe(before);
				expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({
					version: '0.3.0'
				});
			} finally {
				if (pid) process.kill(pid, 'SIGTERM');
			}
		});

		/** docs/operations.md's « From an earlier release », its first `sh` block, with the archive's name put in. */
		const fromAnEarlierRelease = (archive: string, port: number) => {
			const command = readFileSync(
				path.join(import.meta.dirname, '..', '..', 'docs', 'operations.md'),
				'utf8'
			)
				.match(/<!-- from an earlier release -->\n+```sh\n(.+)\n```/)![1]!
				.replaceAll('atelier-<version>-<commit>.tar.gz', path.basename(archive));
			return spawnSync('sh', ['-c', command], {
				cwd: path.dirname(archive),
				encoding: 'utf8',
				env: { PATH: process.env.PATH, HOME: path.dirname(archive), PORT: String(port), HOST: '127.0.0.1' },
				timeout: 120_000
			});
		};

		/** The installation's own `npm start` (its scripts' start.mjs), until /healthz answers; then stopped. */
		async function servedByItsOwnStart(site: string, port: number): Promise<unknown> {
			const start = spawn(process.execPath, [path.join(site, 'scripts', 'start.mjs')], {
				cwd: site,
				env: { PATH: process.env.PATH, HOME: site, PORT: String(port), HOST: '127.0.0.1' },
				stdio: ['ignore', 'pipe', 'pipe']
			});
			let output = '';
			start.stdout.on('data', (chunk) => (output += chunk));
			start.stderr.on('data', (chunk) => (output += chunk));
			try {
				let answer: unknown = null;
				await expect
					.poll(
						async () => {
							if (start.exitCode !== null) return `exited ${start.exitCode}: ${output}`;
							answer = await fetch(`http://127.0.0.1:${port}/healthz`).then(
								(r) => r.json(),
								() => null
							);
							return answer === null ? 'not yet' : 'answered';
						},
						{ timeout: 30_000 }
					)
					.toBe('answered');
				expect(output).not.toMatch(/building/i);
				return answer;
			} finally {
				start.kill('SIGTERM');
			}
		}

		for (const [release, scriptsOf] of [
			['0.5.0 (a66e130, whose upgrade takes no archive)', RELEASE_0_5_0],
			['0.5.0 on main (04f86b8, which skipped the packages)', RELEASE_0_5_0_ON_MAIN],
			['this version', null]
		] as const)
			it(`an installation of ${release} upgrades with the one command operations.md gives; its own npm start serves the new build after; its files stay as they were`, async () => {
				const { site, archive } = needingProbe(scriptsOf);
				const before = treeOf(site);
				const [port, later] = await freePorts(2);
				const done = fromAnEarlierRelease(archive, port!);
				const pid = Number(/pid (\d+)\), detached/.exec(done.stdout)?.[1]);
				try {
					expect(done.status, `${done.stdout}${done.stderr}${done.error ?? ''}`).toBe(0);
					expect(done.stdout).toContain('upgrade: done');
					expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({
						version: '0.3.0'
					});
				} finally {
					if (pid) process.kill(pid, 'SIGTERM');
				}
				expect(treeOf(site)).toBe(before);
				// A reboot: the installation's own npm start, whatever its version, serves the new build.
				if (pid) await expect.poll(() => alive(pid), { timeout: 30_000 }).toBe(false);
				expect(await servedByItsOwnStart(site, later!)).toMatchObject({ version: '0.3.0' });
			});

		it('from 0.5.0 (a66e130), an upgrade that fails leaves the folder as it was: the previous build serves, the message says so', async () => {
			const { site, archive } = needingProbe(RELEASE_0_5_0, 'process.exit(3);\n');
			writeFileSync(
				path.join(site, 'builds', '0.1.0-0123456789ab', 'server.js'),
				"require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.1.0', commit: '0123456789ab' }))).listen(Number(process.env.PORT), '127.0.0.1');\n"
			);
			const before = treeOf(site);
			const [port, later] = await freePorts(2);
			const failed = fromAnEarlierRelease(archive, port!);
			const pid = Number(/pid (\d+)\), detached/.exec(failed.stdout + failed.stderr)?.[1]);
			try {
				expect(failed.status).toBe(1);
				expect(failed.stderr).toContain('the previous version runs again');
				expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({
					version: '0.1.0'
				});
			} finally {
				if (pid) process.kill(pid, 'SIGTERM');
			}
			expect(treeOf(site)).toBe(before);
			expect(existsSync(path.join(site, 'builds', '0.3.0-fedcba987654'))).toBe(false);
			if (pid) await expect.poll(() => alive(pid), { timeout: 30_000 }).toBe(false);
			expect(await servedByItsOwnStart(site, later!)).toMatchObject({ version: '0.1.0' });
		});

		it('run from an archive in a folder that is no installation, the upgrader refuses and writes nothing there', () => {
			const { archive } = installationAndArchive();
			const elsewhere = mkdtempSync(path.join(tmpdir(), 'atelier-not-an-installation-'));
			cleanup.push(elsewhere);
			const refused = spawnSync(
				'sh',
				['-c', `tar -xzOf '${archive}' upgrade.mjs | node --input-type=module - '${archive}'`],
				{
					cwd: elsewhere,
					encoding: 'utf8',
					env: { PATH: process.env.PATH, HOME: elsewhere }
				}
			);
			expect(refused.status).toBe(1);
			expect(refused.stderr).toContain('is not an Atelier installation');
			expect(readdirSync(elsewhere)).toEqual([]);
		});

		it('a build whose server never answered is removed once the previous one serves again: rollback --list never offers it', async () => {
			const { site, archive } = installationAndArchive({ server: 'process.exit(3);\n' });
			// The previous build serves again: a server of its own that answers as 0.1.0.
			writeFileSync(
				path.join(site, 'builds', '0.1.0-0123456789ab', 'server.js'),
				"require('node:http').createServer((q, r) => r.end(JSON.stringify({ status: 'ok', version: '0.1.0', commit: '0123456789ab' }))).listen(Number(process.env.PORT), '127.0.0.1');\n"
			);
			const [port] = await freePorts(1);
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
			const [port] = await freePorts(1);
			const first = upgrade(site, [archive], port);
			const firstPid = Number(/pid (\d+)\), detached/.exec(first.stdout)?.[1]);
			if (firstPid) process.kill(firstPid, 'SIGTERM');
			expect(first.status, first.stderr).toBe(0);
			expect(first.stdout).toContain('upgrade: 0.1.0+0123456789ab → 0.3.0\n');
			// The first server gone (and its lock with it): waited for, not slept on.
			if (firstPid) await expect.poll(() => alive(firstPid), { timeout: 30_000 }).toBe(false);
			const again = upgrade(site, [archive], port);
			const againPid = Number(/pid (\d+)\), detached/.exec(again.stdout)?.[1]);
			if (againPid) process.kill(againPid, 'SIGTERM');
			const builds = spawnSync('ls', [path.join(site, 'builds')], { encoding: 'utf8' }).stdout.split('\n');
			expect(builds.filter((name) => name.startsWith('0.3.0'))).toEqual(['0.3.0-fedcba987654']);
		});
	}
);
