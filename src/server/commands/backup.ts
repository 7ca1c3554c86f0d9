/**
 * `npm run backup -- <file|folder|->`: one archive of the database, the bucket and the signing secret
 * (docs/operations.md), encrypted with age to BACKUP_AGE_RECIPIENTS — or, when none is configured, to the
 * installation's own key (DATA_DIR/backup-key.txt). `--plain` writes a plain tar.gz. A folder gets a dated file
 * name; `-` writes to standard output. A file appears under its name only once complete and checked whole as
 * it was written (backup/file.ts); an interrupted backup leaves nothing and exits non-zero.
 *
 * `--verify <file>` restores an archive into a throw-away database to prove it restorable (backup/verify.ts); it
 * takes the keys restore takes (`--identity`, `--plain`).
 *
 * `--read-only` writes nothing into the database — no migration, no trail — so that the archive is of the schema
 * as it is: `npm run upgrade` takes it with the new build before the new build migrates, and prints on standard
 * output what it needs (the file, the number of migrations in the archive). It is encrypted to the installation's
 * key too, which `npm run rollback` restores it with.
 */
import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { backupFileName, writeBackup } from '../../lib/server/backup';
import { commandActor } from '../../lib/server/audit';
import { configuredDataDir, loadConfig } from '../../lib/server/config';
import { createStorage } from '../../lib/server/storage';
import { InvalidArchiveError, rowsIn, TargetError } from '../../lib/server/backup';
import {
	ArchiveKeyError,
	backupRecipients,
	installationKey,
	openArchive,
	sealing
} from '../../lib/server/backup';
import { writeBackupFile } from '../../lib/server/backup';
import { recordBackupMade } from '../../lib/server/backup';
import { verifyByRestoring } from '../../lib/server/backup';
import { openingKeys, takeKeyArguments, type KeyArguments } from '../cli/archive-keys';
import {
	CommandError,
	fileArgument,
	openCommandDatabase,
	operatorPath,
	requireInstallation,
	requireInstalledDatabase,
	runCommand,
	EXIT
} from '../cli/command';

const USAGE =
	'usage: npm run backup -- [--plain] [--read-only] <file.tar.gz.age | folder | ->\n' +
	'       npm run backup -- --verify <file> [--identity <key file>] [--plain]';

async function main(argv: string[]): Promise<number> {
	const keyArguments = takeKeyArguments(argv);
	if (keyArguments.rest[0] === '--verify') return verify(keyArguments.rest.slice(1), keyArguments);
	if (keyArguments.identityFiles.length) {
		console.error(USAGE);
		return EXIT.usage;
	}
	const readOnly = keyArguments.rest.includes('--read-only');
	const [target, ...rest] = keyArguments.rest.filter((arg) => arg !== '--read-only');
	if (!target || rest.length || (readOnly && target === '-')) {
		console.error(USAGE);
		return EXIT.usage;
	}
	requireInstallation('backup');
	const config = loadConfig();
	const plain = keyArguments.plain;
	let recipients: string[] | null = null;
	let ownKey: string | null = null;
	if (!plain) {
		if (readOnly) {
			// For the rollback, which restores it on this machine: the installation's key opens it.
			const own = await installationKey(config.dataDir);
			recipients = [own.recipient, ...config.backup.ageRecipients];
		} else ({ recipients, ownKey } = await backupRecipients(config.backup.ageRecipients, config.dataDir));
	}
	const file = target === '-' ? null : await outputFile(operatorPath(target), target, !plain);
	const database = openCommandDatabase(
		config,
		'backup',
		(server) =>
			'While it runs, the server itself gives the same archive: sign in as an administrator and open ' +
			`${new URL('/admin/sauvegarde', server).href} (« Sauvegarde »). Or stop the server, run this ` +
			'command, and start it again.'
	);
	try {
		await requireInstalledDatabase(database, config.dataDir, 'backup');
		if (!readOnly) await database.migrate();
		const source = { database, storage: createStorage(config), signingSecret: config.signingSecret };
		const summary = file
			? (await writeBackupFile(source, file, recipients)).summary
			: await writeBackup(source, process.stdout, {
					seal: recipients ? await sealing({ recipients }) : undefined
				});
		const rows = rowsIn(summary);
		const bytes = file ? (await stat(file)).size : null;
		if (readOnly) {
			console.log(JSON.stringify({ file, migrations: summary.migrations, rows }));
		} else {
			await recordBackupMade(database.db, {
				how: 'command',
				fileName: file ? path.basename(file) : null,
				bytes,
				destination: file ? 'fichier' : 'sortie standard',
				verified: file ? 'read-back' : null,
				encrypted: !plain,
				summary,
				// The whole database left through this command: the trail says so, as it does for the admin page.
				trail: { actor: commandActor('npm run backup'), kind: 'backup.written_by_cli' }
			});
		}
		const size = bytes === null ? '' : ` (${megabytes(bytes)})`;
		console.error(
			`Backup written${file ? ` to ${file}` : ''}${size}: ${rows} rows in ${Object.keys(summary.tables).length} ` +
				`tables, ${summary.objects.count} objects (${megabytes(summary.objects.bytes)}), the signing secret` +
				(file ? '; checked whole as it was written, every checksum.' : '.') +
				(summary.vanished ? ` ${summary.vanished} objects deleted during the backup were left out.` : '') +
				(plain
					? '\nIt is NOT encrypted and holds password hashes, personal data and the signing secret: keep it as ' +
						'private as the server.'
					: `\nEncrypted with age to ${recipients!.length === 1 ? 'one key' : `${recipients!.length} keys`}` +
						(ownKey
							? ` (this installation's own, ${ownKey}: keep a copy of that file away from this server, or set ` +
								'BACKUP_AGE_RECIPIENTS to a key that never is on it).'
							: '.'))
		);
		return EXIT.done;
	} finally {
		await database.close();
	}
}

/** `--verify <file>`: restores the archive into a throw-away database and says whether everything matched. */
async function verify(args: string[], keyArguments: KeyArguments): Promise<number> {
	const file = await fileArgument(args, USAGE);
	if (!file) return EXIT.usage;
	// Any machine may check an archive (a fresh clone, with the key file): nothing is created looking for the
	// installation's key (loadConfig would make a signing secret), and a key not found names where it was looked for.
	const dataDir = configuredDataDir();
	const keys = await openingKeys(keyArguments, dataDir);
	const started = Date.now();
	try {
		const summary = await verifyByRestoring(() => openArchive(file, () => createReadStream(file), keys));
		const rows = rowsIn(summary);
		console.error(
			`${file}: verified — made ${summary.createdAt} by Atelier ${summary.appVersion}, restored into a throw-away ` +
				`database: ${rows} rows in ${Object.keys(summary.tables).length} tables and ${summary.objects} objects, ` +
				`every count and checksum as the manifest says (${((Date.now() - started) / 1000).toFixed(1)} s).`
		);
		return EXIT.done;
	} catch (error) {
		if (error instanceof ArchiveKeyError)
			throw new CommandError(
				`${file}: ${error.message}.` +
					(keyArguments.identityFiles.length || keys.identities.length
						? ''
						: ` No key was given, and DATA_DIR ${dataDir} holds no installation key (backup-key.txt):` +
							' give the key with --identity <file>.')
			);
		if (error instanceof InvalidArchiveError || error instanceof TargetError)
			throw new CommandError(`${file}: NOT restorable — ${error.message}.`);
		throw error;
	}
}

/**
 * The file to write: a folder gets a dated name — one named with a trailing slash is made when missing (only the
 * last level, private) — and an existing file is never overwritten.
 */
async function outputFile(target: string, typed: string, sealed: boolean): Promise<string> {
	if (/[/\\]$/.test(typed) && !(await stat(target).catch(() => null))) {
		if (!(await stat(path.dirname(target)).catch(() => null))?.isDirectory())
			throw new CommandError(`the folder ${path.dirname(target)} does not exist`);
		await mkdir(target, { mode: 0o700 });
	}
	const existing = await stat(target).catch(() => null);
	if (existing?.isDirectory()) return path.join(target, backupFileName(new Date(), 'backup', sealed));
	if (existing) throw new CommandError(`${target} exists already: give another name, or a folder`);
	if (!(await stat(path.dirname(target)).catch(() => null))?.isDirectory())
		throw new CommandError(`the folder ${path.dirname(target)} does not exist`);
	return target;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

runCommand(main);
