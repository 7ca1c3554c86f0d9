/**
 * `npm run upgrade -- --service <unit>` (and rollback) with the documented privilege (docs/operations.md, « Under
 * systemd »): `systemctl stop|start` as root — directly when root, else through `sudo -n` — and the build's backup
 * and restore as the unit's user, who owns DATA_DIR (setpriv when root, else `sudo -n -E -u`). Tested with a
 * stand-in `systemctl` on PATH (it answers `show -p User` and records what it is asked, and by whom) and a second
 * user of this machine; the second part needs root (CI and the developers' machines run as root).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	chmodSync,
	chownSync,
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The script's own `privileged`, loaded by path: a plain .mjs of the project, which TypeScript does not check. */
type Privileged = (options: {
	argv: string[];
	as: string | null;
	uid: number;
	currentUser: string;
}) => [string, string[]];
const scriptFile = path.join(import.meta.dirname, '..', '..', 'scripts', 'upgrade-steps.mjs');
const privileged = ((await import(scriptFile)) as { privileged: Privileged }).privileged;

const SERVICE_USER = 'atelier-svc-test';
const root = process.getuid?.() === 0;
const cleanup: string[] = [];
afterAll(() => cleanup.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the privilege each step runs with', () => {
	it('systemctl as root, through sudo -n otherwise; commands as the unit’s user, through setpriv or sudo -n -E', () => {
		const argv = ['systemctl', 'stop', 'atelier'];
		expect(privileged({ argv, as: 'root', uid: 0, currentUser: 'root' })).toEqual([
			'systemctl',
			['stop', 'atelier']
		]);
		expect(privileged({ argv, as: 'root', uid: 1000, currentUser: 'deploy' })).toEqual([
			'sudo',
			['-n', 'systemctl', 'stop', 'atelier']
		]);
		const command = [
			'/usr/bin/node',
			'/srv/atelier/builds/x/backup.js',
			'--read-only',
			'/srv/atelier/data/b'
		];
		expect(privileged({ argv: command, as: 'atelier', uid: 0, currentUser: 'root' })).toEqual([
			'setpriv',
			['--reuid=atelier', '--regid=atelier', '--init-groups', '--', ...command]
		]);
		expect(privileged({ argv: command, as: 'atelier', uid: 1000, currentUser: 'deploy' })).toEqual([
			'sudo',
			['-n', '-E', '-u', 'atelier', '--', ...command]
		]);
		// The unit's user is this process's, or none was named: as it is.
		expect(privileged({ argv: command, as: 'deploy', uid: 1000, currentUser: 'deploy' })).toEqual([
			command[0],
			command.slice(1)
		]);
		expect(privileged({ argv: command, as: null, uid: 1000, currentUser: 'deploy' })).toEqual([
			command[0],
			command.slice(1)
		]);
	});

	it.runIf(root)(
		'under a stand-in systemd: stop and start as root, the backup written by the unit’s user into its DATA_DIR',
		() => {
			if (spawnSync('id', ['-u', SERVICE_USER]).status !== 0)
				execFileSync('useradd', [
					'--system',
					'--no-create-home',
					'--shell',
					'/usr/sbin/nologin',
					SERVICE_USER
				]);
			const uid = Number(execFileSync('id', ['-u', SERVICE_USER], { encoding: 'utf8' }).trim());

			const tree = mkdtempSync(path.join(tmpdir(), 'atelier-service-'));
			cleanup.push(tree);
			chmodSync(tree, 0o755);
			cpSync(path.join(import.meta.dirname, '..', '..', 'scripts'), path.join(tree, 'scripts'), {
				recursive: true
			});
			writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: 'atelier', version: '0.0.0' }));
			// The service's DATA_DIR: its user's, closed to everyone else.
			const dataDir = path.join(tree, 'data');
			mkdirSync(dataDir, { mode: 0o700 });
			chownSync(dataDir, uid, uid);
			// A build whose `probe` command writes the file it is given, as a backup command would.
			const build = path.join(tree, 'builds', 'probe');
			mkdirSync(build, { recursive: true });
			writeFileSync(
				path.join(build, 'probe.js'),
				"require('node:fs').writeFileSync(process.argv[2], String(process.getuid()) + ' ' + process.env.DATA_DIR);\nconsole.log('{}');\n"
			);
			chmodSync(path.join(tree, 'builds'), 0o755);
			chmodSync(build, 0o755);
			// systemctl, stood in: what it is asked and by whom, and the unit's User=.
			const bin = path.join(tree, 'bin');
			mkdirSync(bin);
			const calls = path.join(tree, 'systemctl.log');
			writeFileSync(
				path.join(bin, 'systemctl'),
				`#!/bin/sh\nif [ "$1" = show ]; then echo ${SERVICE_USER}; exit 0; fi\necho "$(id -u) $*" >> ${calls}\n`,
				{ mode: 0o755 }
			);
			const driver = `
			import * as steps from ${JSON.stringify(path.join(tree, 'scripts', 'upgrade-steps.mjs'))};
			const server = steps.serverToStop({ service: 'atelier-test' });
			await steps.stopServer(server);
			const file = steps.backupFile('before-probe', { as: server.user });
			steps.runBuildCommand(${JSON.stringify(build)}, 'probe', [file], { as: server.user });
			steps.startServer(server);
			console.log(JSON.stringify({ user: server.user, file }));`;
			const run = spawnSync(process.execPath, ['--input-type=module', '-e', driver], {
				cwd: tree,
				encoding: 'utf8',
				env: { PATH: `${bin}:${process.env.PATH}`, HOME: tree, DATA_DIR: dataDir }
			});
			expect(run.status, run.stderr).toBe(0);
			const { user, file } = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
			expect(user).toBe(SERVICE_USER);
			expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual([
				'0 stop atelier-test',
				'0 start atelier-test'
			]);
			// Written by the unit's user, with the settings in its environment, in a folder of theirs closed to others.
			expect(readFileSync(file, 'utf8')).toBe(`${uid} ${dataDir}`);
			expect(statSync(file).uid).toBe(uid);
			const folder = statSync(path.dirname(file));
			expect(folder.uid).toBe(uid);
			expect(folder.mode & 0o777).toBe(0o700);
		}
	);
});

describe('the settings an upgrade runs with', () => {
	it('the running server’s environment replaces the shell’s, but the build cache the command was given stays', () => {
		const driver = `
			import * as steps from ${JSON.stringify(scriptFile)};
			steps.adoptSettings({ env: { DATA_DIR: '/srv/site/data', PORT: '3100' } });
			const { DATA_DIR, PORT, FROM_THE_SHELL, ATELIER_BUILD_CACHE } = process.env;
			console.log(JSON.stringify({ DATA_DIR, PORT, FROM_THE_SHELL, ATELIER_BUILD_CACHE }));`;
		const run = spawnSync(process.execPath, ['--input-type=module', '-e', driver], {
			encoding: 'utf8',
			env: {
				PATH: process.env.PATH,
				ATELIER_ENV_FILE: path.join(tmpdir(), 'no-such-env-file'),
				DATA_DIR: '/elsewhere',
				FROM_THE_SHELL: 'yes',
				ATELIER_BUILD_CACHE: '/tmp/builds-by-sources'
			}
		});
		expect(run.status, run.stderr).toBe(0);
		expect(JSON.parse(run.stdout)).toEqual({
			DATA_DIR: '/srv/site/data',
			PORT: '3100',
			ATELIER_BUILD_CACHE: '/tmp/builds-by-sources'
		});
	});
});
