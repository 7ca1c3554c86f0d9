// `npm run upgrade [-- --service <unit>]`, after `git pull && npm ci` (docs/operations.md, "Upgrading"):
//  1. builds the new version beside the running one (builds/<version>-<commit>; nothing the server reads changes);
//  2. stops the server (it drains in-flight requests) — the site is down from here (under `npm start`, whose
//     supervisor keeps the socket, requests wait rather than being refused: scripts/supervisor.mjs)…
//  3. writes a backup of the data as they are (DATA_DIR/backups/atelier-before-<version>-<time>.tar.gz.age), with the new
//     build's backup command in --read-only mode: no migration, nothing written into the database (on PostgreSQL,
//     before the stop, while the old server still serves);
//  4. makes the new build current and starts its server, which applies the migrations (each one logged) and
//     listens — …to the moment /healthz answers with the new version. That downtime is measured and printed.
// The server then runs on its own, detached from the terminal (logs/server.log); what was done is kept in
// builds/last-upgrade.json for `npm run rollback`. If anything fails after the stop, the previous build is started again on the data as
// they were (restored from the backup if the new build had migrated them).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildState, root } from './build-dir.mjs';
import { ArchiveError, installReleaseArchive } from './release-archive.mjs';
import {
	adoptFolder,
	currentBuild,
	forgetBackedUp,
	labelOf,
	listBuilds,
	noteBackedUp,
	releaseOf,
	switchTo,
	writeUpgradeRecord
} from './releases.mjs';
import {
	adoptSettings,
	holdingOperationLock,
	backupFile,
	migrationsOf,
	parseOptions,
	runBuildCommand,
	seconds,
	serverToStop,
	startServer,
	StepError,
	stopServer,
	waitUntilServing
} from './upgrade-steps.mjs';

const USAGE = 'usage: npm run upgrade [-- [<release archive>.tar.gz] [--service <systemd unit>]]';
/** What a build is (`0.5.0`, or `0.5.0+04f86b8a1c2d` for anything but a tagged release: releases.mjs). */
const describe = (dir) => labelOf(releaseOf(dir));

/**
 * One upgrade or rollback at a time: a second one meanwhile is refused before it stops or changes anything. Run
 * from a release archive (scripts/upgrader-bundle.mjs), the installation is the folder it is run in: one that is not
 * is refused before anything is written there.
 */
const main = async () => {
	if (!isInstallation(root))
		throw new StepError(
			`${root} is not an Atelier installation (no package.json of Atelier's): run the upgrade in the installation's folder.`
		);
	return holdingOperationLock('upgrade', upgradeSite);
};

function isInstallation(folder) {
	try {
		return JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).name === 'atelier';
	} catch {
		return false;
	}
}

async function upgradeSite() {
	const options = parseOptions(process.argv.slice(2), USAGE, { archives: true });
	const server = serverToStop(options);
	adoptSettings(server);
	const current = currentBuild();
	if (!current) throw new StepError('No build yet: `npm start` builds and starts the first one.');

	// 1. The new build, beside the current one: made now, or already made for these sources and not current.
	let buildSeconds = 0;
	let next = options.archive
		? await fromArchive(options.archive)
		: listBuilds().find((build) => build.name !== current.name && buildState(build.dir) === 'fresh');
	if (!next) {
		if (buildState(current.dir) === 'fresh')
			throw new StepError(
				`${describe(current.dir)} is current and up to date with the sources: nothing to upgrade.`
			);
		const started = Date.now();
		const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--no-switch'], {
			cwd: root,
			stdio: 'inherit'
		});
		if (build.status !== 0) throw new StepError('The build failed: nothing else was done; the site runs on.');
		buildSeconds = (Date.now() - started) / 1000;
		next = listBuilds()[0];
	}
	const from = current.dir;
	console.log(`upgrade: ${describe(from)} → ${describe(next.dir)}`);

	// 3. The backup, of the schema as the running version left it. On PostgreSQL the database serves the old server
	// and the backup at once: taken before the stop, the site waits only for the restart. The embedded database is
	// the running server's alone: stopped first. (What is written between this backup and the stop is in the
	// database; a failed upgrade keeps it in a backup of its own before it restores: bringBack.)
	const takeBackup = () => {
		const started = Date.now();
		const made = JSON.parse(
			runBuildCommand(
				next.dir,
				'backup',
				['--read-only', backupFile(`before-${releaseOf(next.dir).version}`, { as: server?.user })],
				{ as: server?.user }
			)
				.trim()
				.split('\n')
				.at(-1)
		);
		return { ...made, ms: Date.now() - started };
	};
	const whileServing = !!process.env.DATABASE_URL && !!server;
	let backup;
	if (whileServing) {
		try {
			backup = takeBackup();
		} catch (error) {
			throw new StepError(`upgrade: the backup failed — ${error.message}\nNothing was stopped or changed.`);
		}
	}

	// 2. Stop.
	const stoppedAt = Date.now();
	if (server) await stopServer(server);
	else console.log('upgrade: no server runs from this folder; the new one will be started.');

	let fromName = current.name;
	let switched = false;
	try {
		backup ??= takeBackup();
		const backupMs = backup.ms;
		// A build/ folder of 0.2.0 or before goes into builds/ with the migrations it ran (those in the backup).
		if (fromName === null) fromName = adoptFolder(backup.migrations);
		const migrated = (migrationsOf(next.dir) ?? 0) > backup.migrations;

		// 4. The new build's server.
		switchTo(next.name);
		switched = true;
		// Started by `npm start`'s supervisor, the new server need not back up again before it migrates.
		noteBackedUp(next.name, backup.file);
		const started = startServer(server);
		const answeredAt = await waitUntilServing(next.dir, started).finally(forgetBackedUp);
		writeUpgradeRecord({
			from: fromName,
			to: next.name,
			backup: backup.file,
			migrated,
			// Made elsewhere: `npm start` serves it as it is, though the sources here are older (releases.mjs).
			...(options.archive && { archive: path.basename(options.archive) }),
			at: new Date().toISOString(),
			downtimeMs: answeredAt - stoppedAt,
			backupMs
		});
		console.log(
			`upgrade: done — ${describe(next.dir)} answers. Downtime ${seconds(answeredAt - stoppedAt)} ` +
				`(backup ${seconds(backupMs)}${whileServing ? ' before the stop, while the site served;' : ','} ` +
				`${migrated ? 'then the migrations' : 'no migration'})` +
				(buildSeconds ? `; build ${buildSeconds.toFixed(0)} s beforehand, while the site was up` : '') +
				`.\nupgrade: backup before the upgrade: ${backup.file}\n` +
				'upgrade: `npm run rollback` goes back to the previous version' +
				(migrated
					? ' and restores that backup (what is written meanwhile goes into a backup of its own first).'
					: '.')
		);
		started?.adopt();
	} catch (error) {
		console.error(`upgrade: failed — ${error.message}`);
		await bringBack(fromName, switched, backup, next, server, whileServing);
		throw new StepError('upgrade: the previous version runs again; nothing was upgraded.');
	}
}

/** A release made by `npm run release`: checked, unpacked and installed as a build beside the current one. */
async function fromArchive(archive) {
	try {
		const name = await installReleaseArchive(archive);
		return listBuilds().find((build) => build.name === name);
	} catch (error) {
		if (error instanceof ArchiveError) throw new StepError(`upgrade: refused — ${error.message}`);
		throw error;
	}
}

/** After a failure past the stop: the previous build again, on the data as they were. */
async function bringBack(fromName, switched, backup, next, server, whileServing) {
	if (switched) {
		// Stop what started, if anything did, and undo its migrations with the backup.
		const running = serverToStop({ service: server?.service ?? null });
		if (running) await stopServer(running);
		if (backup && (migrationsOf(next.dir) ?? 0) > backup.migrations) {
			// Taken while the site served, the backup lacks what was written until the stop: kept first.
			if (whileServing) {
				const kept = runBuildCommand(
					next.dir,
					'backup',
					['--read-only', backupFile('at-failed-upgrade', { as: server?.user })],
					{ as: server?.user }
				);
				console.error(
					`upgrade: the data as they were at the failure are in ${JSON.parse(kept.trim().split('\n').at(-1)).file}`
				);
			}
			runBuildCommand(next.dir, 'restore', [backup.file, '--force', '--as-archived'], { as: server?.user });
		}
	}
	// Never run a 0.2.0 folder as it is: it would take the working tree's (newer) migrations for its own.
	if (fromName === null) fromName = adoptFolder(backup?.migrations);
	switchTo(fromName);
	const from = currentBuild();
	const started = startServer(server);
	await waitUntilServing(from.dir, started);
	started?.adopt();
	// A build whose server never answered is no version to go back to: kept, `rollback --list` would offer it under
	// the same name as a good one. Its sources (or its archive) make it again.
	if (next.name !== fromName) {
		rmSync(next.dir, { recursive: true, force: true });
		console.error(`upgrade: builds/${next.name} never served: removed.`);
	}
}

main().catch((error) => {
	console.error(error instanceof StepError ? error.message : error);
	process.exitCode = 1;
});
