/**
 * Backups for the running server (admin page « Sauvegarde »): on the embedded database the server holds DATA_DIR,
 * so the archive `npm run backup` would write comes from here. `npm run backup` and `npm run restore` call the
 * modules beside directly (src/server/commands/backup.ts, restore.ts).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { appDeps } from '../app';
import { recordAudit, type Actor } from '../audit';
import { database } from '../db';
import { ConflictError, ValidationError } from '../errors';
import { log } from '../log';
import { PRIVATE_DIR_MODE } from '../private-files';
import { appRelease } from '../version';
import { circumstancesOf, listAdmins, notify } from '../auth';
import type { SignInOrigin } from '../auth/session';
import { securityNotices } from '../mail';
import { rowsIn } from './archive';
import { backupFileName, writeBackup } from './backup';
import { backupRecipients, installationKey, MIN_PASSPHRASE_LENGTH, sealing } from './encryption';
import * as queries from './queries';
import { describeKeepPolicy } from './retention';
import { writeBackupFile } from './file';
import { recordBackupMade } from './made';
import { startBackupSchedule } from './schedule';
import { countRows, schemaTables } from './tables';

let inProgress = false;

/**
 * At start, before migrations run on a database that holds data: an archive of it as it is, in
 * DATA_DIR/backups/atelier-before-<version>-<time>.tar.gz.age (the image's upgrade path; `npm run upgrade` takes its
 * own and turns this off for the server it starts), encrypted to the installation's key (and any configured
 * recipients): a rollback on this machine restores it. Written under a temporary name, checked as written, renamed. A
 * failure stops the start: migrating without the backup that was asked for is not the server's call.
 */
export async function backupBeforeMigrating(pending: readonly { tag: string }[]): Promise<void> {
	const { storage, config } = appDeps();
	const folder = path.join(config.dataDir, 'backups');
	await mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
	const file = path.join(folder, backupFileName(new Date(), `before-${appRelease().version}`, true));
	const started = Date.now();
	try {
		const own = await installationKey(config.dataDir);
		await writeBackupFile({ database, storage, signingSecret: config.signingSecret }, file, [
			own.recipient,
			...config.backup.ageRecipients
		]);
	} catch (error) {
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

/** Starts BACKUP_SCHEDULE's backups on this instance (server start). */
export function startSchedule(): void {
	startBackupSchedule(() => {
		const { storage, config, mail } = appDeps();
		return { database, storage, config, mail };
	});
}

/**
 * What the admin page shows: the last backups (newest first), how the schedule is set up in words, and what a
 * backup made now would hold.
 */
export async function overview() {
	const { db, storage, config } = appDeps();
	const counts = await countRows(db, schemaTables);
	let objects = 0;
	for await (const objectPath of storage.list()) if (objectPath) objects++;
	const { backup } = config;
	return {
		users: counts.get('users') ?? 0,
		leads: counts.get('leads') ?? 0,
		objects,
		runs: await queries.listBackupRuns(db, 20),
		lastGood: await queries.lastGoodBackupAt(db),
		setup: {
			schedule: backup.schedule ? describeSchedule(backup.schedule) : null,
			destinations: [
				...(backup.dir ? ['un dossier du serveur'] : []),
				...(backup.s3 ? [`un stockage S3 à part (${backup.s3.bucket})`] : [])
			],
			keep: describeKeepPolicy(backup.keep),
			// Where the key that opens them is: away from the server (recipients), or on it (its own key).
			keyOnServer: backup.ageRecipients.length === 0
		}
	};
}

/** The dashboard's warning: no backup that went through for more than a day and a half (or none at all). */
export async function staleness(now = new Date()): Promise<{ lastGood: Date | null; stale: boolean }> {
	const lastGood = await queries.lastGoodBackupAt(appDeps().db);
	return { lastGood, stale: !lastGood || now.getTime() - lastGood.getTime() > STALE_AFTER_MS };
}
const STALE_AFTER_MS = 36 * 60 * 60 * 1000;
/** The last backup that went through, for the metrics' scrape. */
export const lastGood = () => queries.lastGoodBackup(appDeps().db);

export { MIN_PASSPHRASE_LENGTH };

/** How an archive downloaded from the admin page is sealed. */
export type DownloadSealing = { kind: 'keys' } | { kind: 'passphrase'; passphrase: string };

/**
 * Starts a backup streamed to the caller, encrypted (to the backup keys, or with the passphrase the admin typed).
 * One at a time per server: a second download while one runs is refused (each reads every table and image). A
 * client that goes away stops the backup; it is logged, not recorded.
 */
export async function download(
	admin: Actor,
	origin: SignInOrigin,
	sealingChoice: DownloadSealing
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
	if (sealingChoice.kind === 'passphrase' && sealingChoice.passphrase.length < MIN_PASSPHRASE_LENGTH)
		throw new ValidationError({
			passphrase: [`La phrase de passe doit compter au moins ${MIN_PASSPHRASE_LENGTH} caractères.`]
		});
	if (inProgress) throw new ConflictError('Une sauvegarde est déjà en cours : attendez qu’elle se termine.');
	inProgress = true;
	const { db, storage, config } = appDeps();
	let seal;
	// The whole database and every image leave the server: the trail says who took them, before any byte goes.
	try {
		seal = await sealing(
			sealingChoice.kind === 'passphrase'
				? { passphrase: sealingChoice.passphrase }
				: { recipients: (await backupRecipients(config.backup.ageRecipients, config.dataDir)).recipients }
		);
		await recordAudit(db, admin, {
			kind: 'backup.downloaded',
			subjectType: 'backup',
			changes: { sealedWith: { before: null, after: sealingChoice.kind } }
		});
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
	const fileName = backupFileName(new Date(), 'backup', true);
	let bytes = 0;
	output.on('data', (chunk: Buffer) => (bytes += chunk.length));
	// Free as soon as the last byte is handed to the response (or the client went away): a second download right
	// after the first must not meet « en cours » while this one still closes its database snapshot or is recorded
	// — the client has its whole file before writeBackup settles (seen as a flaky « occupee » in the e2e test).
	const release = () => (inProgress = false);
	output.once('end', release);
	output.once('close', release);
	writeBackup(
		{ database: { db, driver: database.driver }, storage, signingSecret: config.signingSecret },
		output,
		{ seal }
	)
		.finally(release)
		.then(async (summary) => {
			log.info('backup downloaded', {
				adminId: admin.id,
				ms: Date.now() - started,
				rows: rowsIn(summary),
				objects: summary.objects.count
			});
			await recordBackupMade(db, {
				how: 'download',
				fileName,
				bytes,
				destination: 'téléchargement',
				verified: null,
				encrypted: true,
				summary
			});
		})
		.catch((error: unknown) => log.warn('backup not completed', { adminId: admin.id, error }));
	return { fileName, body: Readable.toWeb(output) as ReadableStream<Uint8Array> };
}

/** « chaque jour à 3 h 00 », or the pattern itself when it is not one of the usual shapes. */
function describeSchedule(pattern: string): string {
	const parts = pattern.trim().split(/\s+/);
	if (parts.length === 5) {
		const [minute, hour, day, month, weekday] = parts;
		if (/^\d+$/.test(minute!) && /^\d+$/.test(hour!) && month === '*') {
			const at = `${Number(hour)} h ${minute!.padStart(2, '0')}`;
			if (day === '*' && weekday === '*') return `chaque jour à ${at}`;
			const days = ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
			if (day === '*' && /^[0-7]$/.test(weekday!)) return `chaque ${days[Number(weekday)]} à ${at}`;
		}
	}
	return `selon le calendrier « ${pattern} »`;
}

/** What the operators' commands (`npm run backup`, `npm run restore`) compose, on their own database and storage. */
export { backupFileName, writeBackup } from './backup';
export { InvalidArchiveError, rowsIn, TargetError } from './archive';
export {
	ArchiveKeyError,
	backupRecipients,
	installationKey,
	installationKeyFile,
	openArchive,
	parseIdentities,
	readIdentityFile,
	sealing,
	type OpeningKeys
} from './encryption';
export { writeBackupFile } from './file';
export { recordBackupMade } from './made';
export { verifyByRestoring } from './verify';
export {
	describeContents,
	inspectTarget,
	isEmpty,
	restoreBackup,
	TargetNotEmptyError,
	verifyBackup
} from './restore';
