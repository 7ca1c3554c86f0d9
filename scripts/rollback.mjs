// `npm run rollback [-- --service <unit>]`: back to the build that ran before the last `npm run upgrade`
// (builds/last-upgrade.json). Stops the server; when the upgrade migrated the database, restores the backup taken
// before it with the newer build (`restore --force --as-archived`: the schema as archived, every newer table gone);
// makes the previous build current and starts it. What was written since the upgrade goes with the restore, but
// is not lost: a backup of the data as they are is written first (DATA_DIR/backups), and the downtime printed.
import { existsSync } from 'node:fs';
import {
	currentBuild,
	labelOf,
	listBuilds,
	readUpgradeRecord,
	releaseOf,
	switchTo,
	writeUpgradeRecord
} from './releases.mjs';
import {
	adoptSettings,
	holdingOperationLock,
	backupFile,
	buildPath,
	parseOptions,
	runBuildCommand,
	seconds,
	serverToStop,
	startServer,
	StepError,
	stopServer,
	waitUntilServing
} from './upgrade-steps.mjs';

const USAGE = 'usage: npm run rollback [-- --service <systemd unit>] | npm run rollback -- --list';

/** `--list`: the builds kept here, newest first, which is current, and what a rollback would go back to. */
function listBuildsHere() {
	const current = currentBuild();
	const record = readUpgradeRecord();
	const target = record && !record.rolledBackAt ? record.from : null;
	const builds = listBuilds();
	if (!builds.length) return console.log('No build in builds/: `npm start` makes the first one.');
	for (const build of builds) {
		const notes = [
			build.name === current?.name && 'current',
			build.name === target && 'what `npm run rollback` goes back to',
			build.name === record?.to && record?.rolledBackAt && `rolled back from on ${record.rolledBackAt}`
		].filter(Boolean);
		console.log(
			`${labelOf(releaseOf(build.dir))}  builds/${build.name}${notes.length ? `  — ${notes.join('; ')}` : ''}`
		);
	}
	if (!target)
		console.log(
			record?.rolledBackAt
				? 'The last upgrade was rolled back already: nothing to roll back.'
				: 'No upgrade recorded: nothing to roll back.'
		);
	console.log(
		'Any release can be built again from its commit (CHANGELOG.md names each): git checkout <commit>.'
	);
}

/** One upgrade or rollback at a time: a second one meanwhile is refused before it stops or changes anything. */
const main = async () => {
	if (process.argv.slice(2).includes('--list')) return listBuildsHere();
	return holdingOperationLock('rollback', rollbackSite);
};

async function rollbackSite() {
	const options = parseOptions(process.argv.slice(2), USAGE);
	const server = serverToStop(options);
	adoptSettings(server);
	const record = readUpgradeRecord();
	if (!record || record.rolledBackAt)
		throw new StepError('No upgrade to roll back (builds/last-upgrade.json).');
	const previous = buildPath(record.from);
	if (!existsSync(previous)) throw new StepError(`The previous build (builds/${record.from}) is gone.`);
	if (record.migrated && !existsSync(record.backup))
		throw new StepError(
			`The backup taken before the upgrade (${record.backup}) is gone: nothing was changed.`
		);
	// The restore is done by the newest build there is: its restore knows every table the upgrade added.
	const newer = currentBuild()?.dir ?? buildPath(record.to);
	const label = labelOf(releaseOf(previous));
	console.log(`rollback: back to ${label}${record.migrated ? `, with ${record.backup}` : ''}`);

	const stoppedAt = Date.now();
	if (server) await stopServer(server);
	let restoreMs = 0;
	let kept = null;
	if (record.migrated) {
		const started = Date.now();
		// Before anything is replaced: the data as they are now, in case what was written since is wanted.
		kept = JSON.parse(
			runBuildCommand(newer, 'backup', ['--read-only', backupFile('at-rollback', { as: server?.user })], {
				as: server?.user
			})
				.trim()
				.split('\n')
				.at(-1)
		);
		runBuildCommand(newer, 'restore', [record.backup, '--force', '--as-archived'], { as: server?.user });
		restoreMs = Date.now() - started;
	}
	switchTo(record.from);
	const started = startServer(server);
	const answeredAt = await waitUntilServing(previous, started);
	writeUpgradeRecord({ ...record, rolledBackAt: new Date().toISOString() });
	console.log(
		`rollback: done — ${label} answers. Downtime ${seconds(answeredAt - stoppedAt)}` +
			(record.migrated ? ` (backup and restore ${seconds(restoreMs)})` : ' (no migration to undo)') +
			`. The newer build stays in builds/${record.to}` +
			(kept ? `; the data as they were before the rollback are in ${kept.file}.` : '.')
	);
	started?.adopt();
}

main().catch((error) => {
	console.error(error instanceof StepError ? error.message : error);
	process.exit(1);
});
