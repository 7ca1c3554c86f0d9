/**
 * An upgrade and a rollback that refuse no connection (issue « Every door holds, part 2 », point 2): a site served
 * by `npm start` — whose supervisor keeps the listening socket (scripts/supervisor.mjs) — is upgraded to a build that
 * migrates, then rolled back, while a poller asks /healthz every 50 ms: every request is answered, all with 200,
 * none refused; the data go through. The tree is a copy of this version in the system's temporary folder; its first
 * build is the tests' build (copied through the build cache, as the upgrade test does), the next one a copy of it
 * under another commit with one more migration — what `npm run upgrade` finds when a build was made beforehand.
 */
import { spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readlinkSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { buildState, keepBuildInCache, sourceDigest, stampOf } from '../../../scripts/build-dir.mjs';
import { baseEnvironment } from '../../../scripts/ci/old-release.mjs';
import { sessionCookieFor } from '../support/accounts';
import { addProbeMigration, copyThisVersion, runIn, siteSettings } from '../support/release-trees';
import { freePort } from '../support/server';

const repo = path.resolve('.');
const admin = { email: 'releve@exemple.fr', password: 'une phrase de passe solide', name: 'Relève' };

/**
 * A second build beside the current one: the same code under another commit, with one more migration (a table, a
 * column on the leads) — so that the upgrade migrates and the rollback restores the backup taken before it.
 */
function nextBuild(tree: string): { name: string; commit: string } {
	const current = readlinkSync(path.join(tree, 'build'));
	const from = path.resolve(tree, current);
	const commit = 'handover0001';
	const name = `${JSON.parse(readFileSync(path.join(from, 'release.json'), 'utf8')).version}-${commit}`;
	const to = path.join(tree, 'builds', name);
	cpSync(from, to, { recursive: true });
	const release = JSON.parse(readFileSync(path.join(to, 'release.json'), 'utf8'));
	writeFileSync(path.join(to, 'release.json'), JSON.stringify({ ...release, commit }) + '\n');
	addProbeMigration(path.join(to, 'drizzle'), 'handover_probe');
	writeFileSync(stampOf(to), new Date().toISOString() + '\n');
	return { name, commit };
}

const run = runIn;

/** One request on a connection of its own, as a monitor's probe makes it: its status, or the error's code. */
function probe(url: string): Promise<number | string> {
	return new Promise((resolve) => {
		const request = get(`${url}/healthz`, { agent: false, timeout: 120_000 }, (response) => {
			response.resume();
			response.on('end', () => resolve(response.statusCode!));
			response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
		});
		request.on('timeout', () => request.destroy(new Error('timeout')));
		request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
	});
}

/** Every 50 ms, a probe with time to wait for the next server: how many answered 200, and what else was seen. */
function poll(url: string) {
	const seen = { ok: 0, refused: 0, failed: [] as (number | string)[], longestMs: 0 };
	let polling = true;
	const loop = (async () => {
		while (polling) {
			const started = Date.now();
			const answer = await probe(url);
			if (answer === 200) seen.ok++;
			else if (answer === 'ECONNREFUSED') seen.refused++;
			else seen.failed.push(answer);
			seen.longestMs = Math.max(seen.longestMs, Date.now() - started);
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	})();
	return {
		async stop() {
			polling = false;
			await loop;
			return seen;
		}
	};
}

const health = async (url: string) =>
	(await (await fetch(`${url}/healthz`)).json()) as { version: string; commit: string };

/**
 * A stand-in `systemctl` on PATH for the unit `atelier` (as tests/integration/service-privilege does): it says the
 * unit's main process is `mainPid`'s, passes `kill --kill-who=main --signal=SIGUSR2` to it, and records each call —
 * a `stop` or `start` would mean the upgrade went around the supervisor.
 */
function standInSystemctl(dir: string, mainPid: () => number) {
	const bin = path.join(dir, 'bin');
	mkdirSync(bin, { recursive: true });
	const calls = path.join(dir, 'systemctl-calls');
	const pidFile = path.join(dir, 'main-pid');
	writeFileSync(
		path.join(bin, 'systemctl'),
		`#!/bin/sh
echo "$*" >> '${calls}'
case "$*" in
  "show -p User --value atelier") echo root ;;
  "show -p MainPID --value atelier") cat '${pidFile}' ;;
  "kill --kill-who=main --signal=SIGUSR2 atelier") kill -USR2 "$(cat '${pidFile}')" ;;
  *) exit 1 ;;
esac
`,
		{ mode: 0o755 }
	);
	return {
		path: `${bin}:${process.env.PATH}`,
		ready: () => writeFileSync(pidFile, String(mainPid())),
		calls: () => readFileSync(calls, 'utf8').trim().split('\n')
	};
}

for (const under of ['npm start', 'the systemd unit'] as const)
	test(
		`npm run upgrade and npm run rollback under ${under}: a poller every 50 ms is never refused, every answer a 200`,
		// On PostgreSQL too under npm start; the unit's way differs only in how the supervisor is signalled.
		under === 'npm start' ? { tag: '@drivers' } : {},
		async () => {
			test.setTimeout(600_000);
			const tree = mkdtempSync(path.join(tmpdir(), 'atelier-handover-'));
			copyThisVersion(tree);
			symlinkSync(path.join(repo, 'node_modules'), path.join(tree, 'node_modules'));
			const { createEmptyPostgresDatabase, serverUrl } = await import('../../helpers/database');
			const database = serverUrl ? await createEmptyPostgresDatabase() : null;
			const port = await freePort();
			const url = `http://127.0.0.1:${port}`;
			// The tests' build, made once for these sources, is the tree's first build (scripts/build.mjs's cache).
			const buildCache = path.join(tmpdir(), 'atelier-upgrade-e2e-builds');
			const testBuild = process.env.ATELIER_BUILD_DIR!;
			if (!existsSync(stampOf(path.join(buildCache, sourceDigest()))) && buildState(testBuild) === 'fresh')
				keepBuildInCache(testBuild, buildCache);
			// The settings in the tree's .env, where the site, the unit and the operator's commands all read them.
			const settings = siteSettings(tree, port, database?.url);
			writeFileSync(
				path.join(tree, '.env'),
				Object.entries(settings)
					.map(([name, value]) => `${name}=${value}\n`)
					.join('')
			);
			const env: NodeJS.ProcessEnv = { ...baseEnvironment(), ATELIER_BUILD_CACHE: buildCache };
			for (const name of Object.keys(settings)) delete env[name];
			// The unit serves what its owner built (docs/atelier.service): built first, then `start.mjs --no-build`.
			if (under === 'the systemd unit')
				expect(spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: tree, env }).status).toBe(0);
			const site = run(
				tree,
				under === 'the systemd unit' ? ['scripts/start.mjs', '--no-build'] : ['scripts/start.mjs'],
				env
			);
			const systemctl = standInSystemctl(tree, () => site.child.pid!);
			const operator =
				under === 'the systemd unit'
					? { env: { ...env, PATH: systemctl.path }, args: ['--service', 'atelier'] }
					: { env, args: [] };
			try {
				await expect
					.poll(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok ?? false, {
						timeout: 240_000,
						message: site.output()
					})
					.toBe(true);
				const first = await health(url);
				const setup = await fetch(`${url}/api/admin/setup`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(admin)
				});
				expect(setup.status).toBe(201);
				const cookie = await sessionCookieFor(url, admin);
				const lead = await fetch(`${url}/api/contact`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', origin: url },
					body: JSON.stringify({
						name: 'Avant Relève',
						email: 'client@exemple.fr',
						message: 'Un mur à refaire avant la mise à jour.'
					})
				});
				expect(lead.status).toBe(201);
				const next = nextBuild(tree);

				let watch = poll(url);
				systemctl.ready();
				const upgrade = run(tree, ['scripts/upgrade.mjs', ...operator.args], operator.env);
				expect(await upgrade.exited, upgrade.output()).toBe(0);
				let seen = await watch.stop();
				test.info().annotations.push({
					type: 'upgrade',
					description: `${/Downtime [\d.]+ s/.exec(upgrade.output())?.[0]}; longest wait seen by the poller ${seen.longestMs} ms, ${seen.ok} answers`
				});
				expect(upgrade.output()).toContain('which kept its socket');
				expect(seen.refused, upgrade.output()).toBe(0);
				expect(seen.failed).toEqual([]);
				expect(seen.ok).toBeGreaterThan(1);
				expect((await health(url)).commit).toBe(next.commit);
				expect(site.output()).toContain('"migration applied","tag":"');
				// The upgrade's backup is the one: the new server does not write another before it migrates.
				expect(site.output()).not.toContain('backup before migrating');
				expect(site.child.exitCode).toBeNull();

				watch = poll(url);
				const rollback = run(tree, ['scripts/rollback.mjs', ...operator.args], operator.env);
				expect(await rollback.exited, rollback.output()).toBe(0);
				seen = await watch.stop();
				test.info().annotations.push({
					type: 'rollback',
					description: `${/Downtime [\d.]+ s/.exec(rollback.output())?.[0]}; longest wait seen by the poller ${seen.longestMs} ms, ${seen.ok} answers`
				});
				expect(seen.refused, rollback.output()).toBe(0);
				expect(seen.failed).toEqual([]);
				expect((await health(url)).commit).toBe(first.commit);
				// The session and the lead written before the upgrade went through both changes.
				const inbox = await fetch(`${url}/admin/demandes`, { headers: { cookie } });
				expect(inbox.status).toBe(200);
				expect(await inbox.text()).toContain('Avant Relève');
				expect(readFileSync(path.join(tree, 'builds', 'last-upgrade.json'), 'utf8')).toContain(
					'rolledBackAt'
				);
				// Under the unit, the server was replaced through its supervisor, never by stopping the unit.
				if (under === 'the systemd unit')
					expect(systemctl.calls().filter((call) => !call.startsWith('show'))).toEqual(
						Array(4).fill('kill --kill-who=main --signal=SIGUSR2 atelier')
					);
			} finally {
				site.child.kill('SIGTERM');
				await site.exited;
				await database?.drop();
				rmSync(tree, { recursive: true, force: true });
			}
		}
	);
