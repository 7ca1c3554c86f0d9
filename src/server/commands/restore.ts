/**
 * `npm run restore -- <file> [--force]`: fills an empty database and bucket from a backup (docs/operations.md).
 * The archive is checked whole before anything changes; a database or bucket that holds data is refused unless
 * --force, with what it would replace. Moving to PostgreSQL and S3 is a backup on the embedded defaults restored
 * with DATABASE_URL and STORAGE_DRIVER=s3 set.
 *
 * An archive encrypted with age is opened with `--identity <file>`, the installation's key (DATA_DIR/backup-key.txt)
 * or the passphrase it asks; a plain tar.gz (before 0.4.0) only with `--plain` (archive-keys.ts).
 *
 * `--as-archived` leaves the schema as the archive has it instead of migrating it to this version's: the data goes
 * back to the release that made the archive. `npm run rollback` restores so, with the newer build (whose restore
 * knows every table the newer migrations made), before it starts the older one.
 */
import { createReadStream, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { commandActor, recordAudit } from '../../lib/server/audit';
import {
	ArchiveKeyError,
	describeContents,
	InvalidArchiveError,
	inspectTarget,
	isEmpty,
	openArchive,
	restoreBackup,
	rowsIn,
	TargetError,
	TargetNotEmptyError,
	verifyBackup,
	type OpeningKeys
} from '../../lib/server/backup';
import { configuredDataDir, loadConfig } from '../../lib/server/config';
import { announceEverythingChanged } from '../../lib/server/pages/cache';
import { createStorage } from '../../lib/server/storage';
import { openingKeys, takeKeyArguments } from '../cli/archive-keys';
import { CommandError, fileArgument, openCommandDatabase, runCommand, EXIT } from '../cli/command';

const USAGE =
	'usage: npm run restore -- <file.tar.gz.age> [--identity <key file>] [--force] [--as-archived]\n' +
	'       npm run restore -- <file.tar.gz> --plain [--force] [--as-archived]';

async function main(argv: string[]): Promise<number> {
	const keyArguments = takeKeyArguments(argv);
	const force = keyArguments.rest.includes('--force');
	const asArchived = keyArguments.rest.includes('--as-archived');
	const files = keyArguments.rest.filter((a) => a !== '--force' && a !== '--as-archived');
	const file = await fileArgument(files, USAGE);
	if (!file) return EXIT.usage;
	// A refused restore leaves DATA_DIR as it was: one that did not exist is not left behind, secret and all.
	const dataDir = configuredDataDir();
	const dataDirExisted = existsSync(dataDir);
	try {
		return await restore(file, await openingKeys(keyArguments, dataDir), force, asArchived);
	} catch (error) {
		if (!dataDirExisted) await rm(dataDir, { recursive: true, force: true });
		throw error;
	}
}

async function restore(
	file: string,
	keys: OpeningKeys,
	force: boolean,
	asArchived: boolean
): Promise<number> {
	const open = () => openArchive(file, () => createReadStream(file), keys);

	let verified;
	try {
		verified = await verifyBackup(open);
	} catch (error) {
		if (error instanceof InvalidArchiveError || error instanceof ArchiveKeyError)
			throw new CommandError(`${file}: ${error.message}. Nothing was changed.`);
		throw error;
	}
	const config = loadConfig();
	const { header, manifest } = verified;
	const rows = rowsIn(manifest);
	console.error(
		`${file}: made ${header.createdAt} by Atelier ${header.appVersion} (${header.source.database} + ` +
			`${header.source.storage}), ${rows} rows, ${manifest.objects.count} objects; checksums verified.`
	);

	const database = openCommandDatabase(
		config,
		'restore',
		() => 'Stop the server first (it stops cleanly on SIGTERM), restore, then start it again.'
	);
	try {
		const storage = createStorage(config);
		const target = { database, storage, dataDir: config.dataDir };
		const before = await inspectTarget(target);
		if (!isEmpty(before)) {
			if (!force) throw new TargetNotEmptyError(before);
			console.error(`--force: replacing what is there now (${describeContents(before, storage.bucket)}).`);
		}
		const summary = await restoreBackup(open, verified, target, {
			force,
			migrate: !asArchived,
			inspected: before
		});
		// After the archive's own trail is in place: the restore itself is its newest row. Not into a schema left
		// as archived, whose trail may not have the columns this version writes: the older release starts on it.
		if (!asArchived)
			await recordAudit(database.db, commandActor('npm run restore'), {
				kind: 'backup.restored',
				subjectType: 'backup',
				changes: {
					replaced: { before: null, after: !isEmpty(before) },
					rows: { before: null, after: rowsIn(summary) }
				}
			});
		// Instances already running on this database drop their cached pages and read the restored words again.
		if (database.pg) await announceEverythingChanged(database.pg);
		console.error(
			`Restored into ${database.driver} + ${storage.driver}: ` +
				`${rowsIn(summary)} rows, ${summary.objects} objects, the signing secret` +
				(summary.migrationsAfter ? `; then ${summary.migrationsAfter} newer migrations applied` : '') +
				(summary.removedObjects ? `; ${summary.removedObjects} objects not in the backup removed` : '') +
				'.'
		);
		// Read again now that DATA_DIR/secret is the backup's: only SIGNING_SECRET in the environment can differ.
		if (loadConfig().signingSecret !== verified.secret.trim())
			console.error(
				"Warning: SIGNING_SECRET is set and differs from the backup's secret, so links signed before the backup " +
					"(payment links) will be refused. The backup's secret is now in " +
					`${config.dataDir}/secret: remove SIGNING_SECRET to use it, or set SIGNING_SECRET to that file's content.`
			);
		console.error('Start the server: sign-in, images and payment links are as they were at the backup.');
		return EXIT.done;
	} catch (error) {
		if (error instanceof TargetNotEmptyError)
			throw new CommandError(
				`The target is not empty (${describeContents(error.contents, config.storage.bucket)}). ` +
					'Restoring replaces all of it with the backup: run again with --force to do so. Nothing was changed.'
			);
		if (error instanceof InvalidArchiveError)
			throw new CommandError(`${file}: ${error.message}. Nothing was changed.`);
		if (error instanceof TargetError) throw new CommandError(`${error.message}. Nothing was changed.`);
		throw error;
	} finally {
		await database.close();
	}
}

runCommand(main);
