/**
 * Backups for the running server (admin page « Sauvegarde »): on the embedded database the server holds DATA_DIR,
 * so the archive `npm run backup` would write comes from here. `npm run backup` and `npm run restore` call the
 * modules beside directly (src/server/backup.ts, restore.ts).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { appDeps } from '../app';
import { recordAudit, type Actor } from '../audit/service';
import { database } from '../db';
import { findJobRun, recordJobRun } from '../db/job-runs';
import { ConflictError } from '../errors';
import { log } from '../log';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { appRelease } from '../version';
import { circumstancesOf, notify } from '../auth/notices';
import { listAdmins } from '../auth/recovery';
import type { SignInOrigin } from '../auth/session';
import { securityNotices } from '../mail';
import { BACKUP_JOB, backupFileName, describeBackup, writeBackup } from './backup';
import { countRows, schemaTables } from './tables';

let inProgress = false;

/**
 * At start, before migrations run on a database that holds data: an archive of it as it is, in
 * DATA_DIR/backups/atelier-before-<version>-<time>.tar.gz (the image's upgrade path; `npm run upgrade` takes its
 * own and turns this off for the server it starts). Written under a temporary name, renamed once complete. A
 * failure stops the start: migrating without the backup that was asked for is not the server's call.
 */
export async function backupBeforeMigrating(pending: readonly { tag: string }[]): Promise<void> {
	const { storage, config } = appDeps();
	const folder = path.join(config.dataDir, 'backups');
	await mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
	const file = path.join(
		folder,
		backupFileName().replace('atelier-backup-', `atelier-before-${appRelease().version}-`)
	);
	const partial = `${file}.partial`;
	const started = Date.now();
	try {
		await writeBackup(
			{ database, storage, signingSecret: config.signingSecret },
			createWriteStream(partial, { mode: PRIVATE_FILE_MODE, flags: 'wx' })
		);
		await rename(partial, file);
	} catch (error) {
		await rm(partial, { force: true });
		throw new Error(
			`the backup before migrating (${pending.map((m) => m.tag).join(', ')}) failed: nothing was migrated. ` +
				'Fix its cause, or set BACKUP_BEFORE_MIGRATING=false to migrate without it.',
			{ cause: error }
		);
	}
	log.info('backup before migrating', {
		file,
		pending: pending.map((m) => m.tag),
		ms: Date.now() - started
	});
}

/** What a backup made now would hold, and when the last one was made. */
export async function overview() {
	const { db, storage } = appDeps();
	const counts = await countRows(db, schemaTables);
	let objects = 0;
	for await (const objectPath of storage.list()) if (objectPath) objects++;
	return {
		rows: [...counts.values()].reduce((a, b) => a + b, 0),
		users: counts.get('users') ?? 0,
		leads: counts.get('leads') ?? 0,
		objects,
		database: database.driver,
		storage: storage.driver,
		last: await findJobRun(db, BACKUP_JOB)
	};
}

/**
 * Starts a backup streamed to the caller. One at a time per server: a second download while one runs is refused
 * (each reads every table and image). A client that goes away stops the backup; it is logged, not recorded.
 */
export async function download(
	admin: Actor,
	origin: SignInOrigin
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
	if (inProgress) throw new ConflictError('Une sauvegarde est déjà en cours : attendez qu’elle se termine.');
	inProgress = true;
	const { db, storage, config } = appDeps();
	// The whole database and every image leave the server: the trail says who took them, before any byte goes.
	try {
		await recordAudit(db, admin, { kind: 'backup.downloaded', subjectType: 'backup' });
		// Every admin is told: an archive opens every account, a download nobody planned must not go unnoticed.
		const circumstances = circumstancesOf(origin);
		for (const to of await listAdmins(db))
			notify(
				appDeps().mail,
				to,
				'backup-downloaded',
				securityNotices.backupDownloaded(to.name, admin.email, circumstances)
			);
	} catch (error) {
		inProgress = false;
		throw error;
	}
	const output = new PassThrough();
	const started = Date.now();
	writeBackup(
		{ database: { db, driver: database.driver }, storage, signingSecret: config.signingSecret },
		output
	)
		.then(async (summary) => {
			log.info('backup downloaded', {
				adminId: admin.id,
				ms: Date.now() - started,
				rows: Object.values(summary.tables).reduce((a, b) => a + b, 0),
				objects: summary.objects.count
			});
			await recordJobRun(
				db,
				BACKUP_JOB,
				new Date(),
				describeBackup(summary, 'téléchargée depuis l’administration')
			);
		})
		.catch((error: unknown) => log.warn('backup not completed', { adminId: admin.id, error }))
		.finally(() => (inProgress = false));
	return { fileName: backupFileName(), body: Readable.toWeb(output) as ReadableStream<Uint8Array> };
}
