/**
 * `npm run backup -- <file|folder|->`: one archive of the database, the bucket and the signing secret
 * (docs/operations.md). A folder gets a dated file name; `-` writes to standard output. The file appears under
 * its name only once complete: an interrupted backup leaves `<name>.partial` and exits non-zero.
 *
 * `--verify <file>` restores an archive into a throw-away database to prove it restorable (backup/verify.ts).
 *
 * `--read-only` writes nothing into the database — no migration, no trail — so that the archive is of the schema
 * as it is: `npm run upgrade` takes it with the new build before the new build migrates, and prints on standard
 * output what it needs (the file, the number of migrations in the archive).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_JOB, backupFileName, describeBackup, writeBackup } from '../lib/server/backup/backup';
import { commandActor, recordAudit } from '../lib/server/audit/service';
import { recordJobRun } from '../lib/server/db/job-runs';
import { loadConfig } from '../lib/server/config';
import { restrictNewFiles } from '../lib/server/private-files';
import { createStorage } from '../lib/server/storage';
import { InvalidArchiveError, TargetError } from '../lib/server/backup/archive';
import { verifyByRestoring } from '../lib/server/backup/verify';
import { CommandError, openCommandDatabase, operatorPath, runCommand } from './command';

const USAGE =
	'usage: npm run backup -- [--read-only] <file.tar.gz | folder | ->\n       npm run backup -- --verify <file.tar.gz>';

async function main(argv: string[]): Promise<number> {
	if (argv[0] === '--verify') return verify(argv.slice(1));
	const readOnly = argv.includes('--read-only');
	const [target, ...rest] = argv.filter((arg) => arg !== '--read-only');
	if (!target || rest.length || (readOnly && target === '-')) {
		console.error(USAGE);
		return 2;
	}
	restrictNewFiles();
	const config = loadConfig();
	const file = target === '-' ? null : await outputFile(operatorPath(target), target);
	const database = openCommandDatabase(
		config,
		'backup',
		'While it runs, the server itself gives the same archive: sign in as an administrator and open ' +
			`${new URL('/admin/sauvegarde', config.origin).href} (« Sauvegarde »). Or stop the server, run this ` +
			'command, and start it again.'
	);
	const partial = file && `${file}.partial`;
	try {
		if (!readOnly) await database.migrate();
		const output = partial ? createWriteStream(partial, { mode: 0o600, flags: 'wx' }) : process.stdout;
		const summary = await writeBackup(
			{ database, storage: createStorage(config), signingSecret: config.signingSecret },
			output
		);
		if (partial && file) await rename(partial, file);
		const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
		if (readOnly) {
			console.log(JSON.stringify({ file, migrations: summary.migrations, rows }));
		} else {
			await recordJobRun(database.db, BACKUP_JOB, new Date(), describeBackup(summary, 'npm run backup'));
			// The whole database left through this command: the trail says so, as it does for the admin page.
			await recordAudit(database.db, commandActor('npm run backup'), {
				kind: 'backup.written_by_cli',
				subjectType: 'backup',
				changes: {
					rows: { before: null, after: rows },
					objects: { before: null, after: summary.objects.count }
				}
			});
		}
		const size = file ? ` (${megabytes((await stat(file)).size)})` : '';
		console.error(
			`Backup written${file ? ` to ${file}` : ''}${size}: ${rows} rows in ${Object.keys(summary.tables).length} ` +
				`tables, ${summary.objects.count} objects (${megabytes(summary.objects.bytes)}), the signing secret.` +
				(summary.vanished ? ` ${summary.vanished} objects deleted during the backup were left out.` : '') +
				'\nIt holds passwords hashes, personal data and the signing secret: keep it as private as the server.'
		);
		return 0;
	} catch (error) {
		if (partial) await rm(partial, { force: true });
		throw error;
	} finally {
		await database.close();
	}
}

/** `--verify <file>`: restores the archive into a throw-away database and says whether everything matched. */
async function verify(args: string[]): Promise<number> {
	if (args.length !== 1 || args[0]!.startsWith('-')) {
		console.error(USAGE);
		return 2;
	}
	const file = operatorPath(args[0]!);
	if (!(await stat(file).catch(() => null))?.isFile()) throw new CommandError(`${file}: no such file`);
	const started = Date.now();
	try {
		const summary = await verifyByRestoring(() => createReadStream(file));
		const rows = Object.values(summary.tables).reduce((a, b) => a + b, 0);
		console.error(
			`${file}: verified — made ${summary.createdAt} by Atelier ${summary.appVersion}, restored into a throw-away ` +
				`database: ${rows} rows in ${Object.keys(summary.tables).length} tables and ${summary.objects} objects, ` +
				`every count and checksum as the manifest says (${((Date.now() - started) / 1000).toFixed(1)} s).`
		);
		return 0;
	} catch (error) {
		if (error instanceof InvalidArchiveError || error instanceof TargetError)
			throw new CommandError(`${file}: NOT restorable — ${error.message}.`);
		throw error;
	}
}

/**
 * The file to write: a folder gets a dated name — one named with a trailing slash is made when missing (only the
 * last level, private) — and an existing file is never overwritten.
 */
async function outputFile(target: string, typed: string): Promise<string> {
	if (/[/\\]$/.test(typed) && !(await stat(target).catch(() => null))) {
		if (!(await stat(path.dirname(target)).catch(() => null))?.isDirectory())
			throw new CommandError(`the folder ${path.dirname(target)} does not exist`);
		await mkdir(target, { mode: 0o700 });
	}
	const existing = await stat(target).catch(() => null);
	if (existing?.isDirectory()) return path.join(target, backupFileName());
	if (existing) throw new CommandError(`${target} exists already: give another name, or a folder`);
	if (!(await stat(path.dirname(target)).catch(() => null))?.isDirectory())
		throw new CommandError(`the folder ${path.dirname(target)} does not exist`);
	return target;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

runCommand(main);
