/**
 * Backups that happen by themselves (`BACKUP_SCHEDULE`, docs/operations.md « Scheduled backups »). At each time of
 * the cron pattern, one instance — the one that takes the advisory lock, when several share a PostgreSQL
 * database — writes an encrypted archive (file.ts: a temporary name, checked whole as it is written, then renamed), proves it
 * restorable into a throw-away database once a week, sends it to each destination, and only then applies
 * retention. Every run is in backup_runs (the admin page) and the audit trail; a failure is e-mailed to every admin.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { Cron } from 'croner';
import { recordAudit, SCHEDULE_ACTOR } from '../audit';
import { listAdmins, notify } from '../auth';
import type { Config } from '../config';
import type { Database } from '../db';
import { inBackground, onShutdown } from '../lifecycle';
import { log } from '../log';
import { backupFailed } from '../mail';
import type { MailDeps } from '../mail/send';
import { PRIVATE_DIR_MODE } from '../private-files';
import type { Storage } from '../storage';
import { backupFileName } from './backup';
import { FolderDestination, S3Destination, type Destination } from './destinations';
import { backupRecipients } from './encryption';
import { writeBackupFile } from './file';
import * as queries from './queries';
import { backupsToRemove, scheduledKind } from './retention';
import { verifyInItsOwnProcess } from './verify';

/** The session-level advisory lock that makes one instance of several run a slot's backup. */
export const BACKUP_LOCK_ID = 7_232_180_317_463_001n;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export interface ScheduleDeps {
	database: Pick<Database, 'db' | 'driver' | 'pg'>;
	storage: Storage;
	config: Config;
	mail: MailDeps;
}

export type ScheduledOutcome =
	| { status: 'ok'; fileName: string; bytes: number; verified: queries.Verification; removed: number }
	| { status: 'failed'; error: string }
	| { status: 'skipped'; reason: string };

let runningHere = false;

/**
 * One slot's backup. `slot` is the time the pattern named (the same on every instance): a slot another instance
 * already backed up is skipped.
 */
export async function runScheduledBackup(deps: ScheduleDeps, slot: Date): Promise<ScheduledOutcome> {
	const outcome = await underScheduleLock(deps, () => backUpSlot(deps, slot));
	return outcome === BUSY ? { status: 'skipped', reason: 'another instance is backing up' } : outcome;
}

/**
 * At start-up: a scheduled run left `running` by a server that stopped in the middle of it is recorded as
 * interrupted and e-mailed to every admin, as a failed one is — now, not at the next slot (a day later, with the
 * page saying « interrompue » to nobody). Under the schedule's lock: a run another instance is making is not one.
 * Answers how many were reported.
 */
export async function reportInterruptedBackups(deps: ScheduleDeps): Promise<number> {
	const reported = await underScheduleLock(deps, () => closeInterrupted(deps));
	return reported === BUSY ? 0 : reported;
}

const BUSY = Symbol('another backup is running');

/** Runs `work` while no other run holds the schedule: in this process, nor (on PostgreSQL) any instance. */
async function underScheduleLock<T>(deps: ScheduleDeps, work: () => Promise<T>): Promise<T | typeof BUSY> {
	if (runningHere) return BUSY;
	runningHere = true;
	try {
		const pg = deps.database.pg;
		if (!pg) return await work();
		const connection = await pg.reserve();
		try {
			const [row] = await connection<
				{ locked: boolean }[]
			>`select pg_try_advisory_lock(${BACKUP_LOCK_ID.toString()}::bigint) as locked`;
			if (!row?.locked) return BUSY;
			try {
				return await work();
			} finally {
				await connection`select pg_advisory_unlock(${BACKUP_LOCK_ID.toString()}::bigint)`.catch(() => {});
			}
		} finally {
			connection.release();
		}
	} finally {
		runningHere = false;
	}
}

/** Runs left `running` (under the lock: none is being written) become failed runs, each e-mailed. */
async function closeInterrupted(deps: ScheduleDeps): Promise<number> {
	const interrupted = await queries.abandonUnfinishedScheduled(deps.database.db);
	for (const run of interrupted) {
		log.error('scheduled backup interrupted', { run: run.id, startedAt: run.startedAt.toISOString() });
		await recordAudit(deps.database.db, SCHEDULE_ACTOR, {
			kind: 'backup.scheduled_failed',
			subjectType: 'backup',
			subjectId: run.id,
			changes: { error: { before: null, after: queries.INTERRUPTED } }
		}).catch(() => {});
		await tellAdmins(deps, run.startedAt, queries.INTERRUPTED).catch((mailError: unknown) =>
			log.error('backup failure e-mail not sent', { error: mailError })
		);
	}
	return interrupted.length;
}

async function backUpSlot(deps: ScheduleDeps, slot: Date): Promise<ScheduledOutcome> {
	const { database, config } = deps;
	const db = database.db;
	// Named after the installation and the slot, which is the same on every instance and unique to this run.
	const installation = await queries.installationId(db, randomBytes(6).toString('hex'));
	const fileName = backupFileName(slot, scheduledKind(installation), true);
	if (await queries.slotBackedUp(db, fileName))
		return { status: 'skipped', reason: 'another instance made this backup' };
	await closeInterrupted(deps);

	const started = new Date();
	const runId = await queries.startBackupRun(db, 'schedule', fileName);
	const folder = config.backup.dir ?? path.join(config.dataDir, 'backups-outgoing');
	// Complete and read back, but not yet everywhere: a backup is in every destination or in none.
	const pending = path.join(folder, `${fileName}.pending`);
	try {
		await mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
		const destinations = destinationsOf(config);
		await refuseForeignDestinations(destinations, installation);
		await removeLeftovers(folder, installation);
		const { recipients } = await backupRecipients(config.backup.ageRecipients, config.dataDir);
		const written = await writeBackupFile(
			{ database, storage: deps.storage, signingSecret: config.signingSecret },
			pending,
			recipients
		);
		let verified: queries.Verification = 'read-back';
		const lastRestore = await queries.lastRestoreCheckAt(db);
		if (!lastRestore || started.getTime() - lastRestore.getTime() >= WEEK_MS) {
			await verifyInItsOwnProcess(pending, written);
			verified = 'restored';
		}
		// A backup is in every destination or in none: no name taken anywhere before the first is sent to.
		for (const destination of destinations) await destination.assertFree(fileName);
		// The off-site copy first: the folder's is a rename, which cannot fail half-way.
		for (const destination of [...destinations].reverse()) await destination.receive(pending, fileName);
		await rm(pending, { force: true });

		await queries.finishBackupRun(db, runId, {
			bytes: written.bytes,
			destinations: destinations.map((d) => d.label),
			verified,
			encrypted: true
		});
		await recordAudit(db, SCHEDULE_ACTOR, {
			kind: 'backup.scheduled',
			subjectType: 'backup',
			subjectId: runId,
			changes: {
				bytes: { before: null, after: written.bytes },
				verified: { before: null, after: verified }
			}
		});
		// Only now: a failed backup never removes the ones before it.
		const removed = await applyRetention(destinations, config, installation);
		log.info('scheduled backup', {
			file: fileName,
			bytes: written.bytes,
			verified,
			destinations: destinations.map((d) => d.label),
			removed,
			ms: Date.now() - started.getTime()
		});
		return { status: 'ok', fileName, bytes: written.bytes, verified, removed };
	} catch (error) {
		// Before the pending file goes, which frees what it took: a full disk is seen as full.
		const cause = (await diskFullUnder(folder, error)) ? DISK_FULL : describeFailure(error);
		await rm(pending, { force: true });
		log.error('scheduled backup failed', { file: fileName, cause, error });
		await queries.failBackupRun(db, runId, cause).catch(() => {});
		await recordAudit(db, SCHEDULE_ACTOR, {
			kind: 'backup.scheduled_failed',
			subjectType: 'backup',
			subjectId: runId,
			changes: { error: { before: null, after: cause } }
		}).catch(() => {});
		await tellAdmins(deps, started, cause).catch((mailError: unknown) =>
			log.error('backup failure e-mail not sent', { error: mailError })
		);
		return { status: 'failed', error: cause };
	}
}

function destinationsOf(config: Config): Destination[] {
	const destinations: Destination[] = [];
	if (config.backup.dir) destinations.push(new FolderDestination(config.backup.dir));
	if (config.backup.s3) destinations.push(new S3Destination(config.backup.s3));
	return destinations;
}

/**
 * Removes, in every destination, this installation's scheduled backups that BACKUP_KEEP does not keep — never
 * another's, nor one named before installations had ids. A failure here is logged only.
 */
async function applyRetention(
	destinations: Destination[],
	config: Config,
	installation: string
): Promise<number> {
	let removed = 0;
	for (const destination of destinations) {
		try {
			const ours = (await destination.scheduledBackups()).filter((b) => b.installation === installation);
			for (const old of backupsToRemove(ours, config.backup.keep)) {
				await destination.remove(old.name);
				removed++;
			}
		} catch (error) {
			log.warn('backup retention failed', { destination: destination.label, error });
		}
	}
	return removed;
}

/** A destination already holds another installation's scheduled backups: two sites were given one place. */
export class ForeignDestinationError extends Error {
	constructor(destination: string, other: string) {
		super(
			`Le ${destination} contient les sauvegardes automatiques d’une autre installation (${other}) : ` +
				'donnez à chaque site son propre BACKUP_DIR, ou son propre BACKUP_S3_PREFIX. Rien n’a été écrit ni effacé.'
		);
	}
}

/**
 * Before anything is written: a place shared with another site would have each one's retention meet the other's
 * files, and their slots' names meet too. Refused, with what to do, rather than sharing it quietly.
 */
async function refuseForeignDestinations(destinations: Destination[], installation: string): Promise<void> {
	for (const destination of destinations) {
		const other = (await destination.scheduledBackups()).find(
			(backup) => backup.installation !== null && backup.installation !== installation
		);
		if (other) throw new ForeignDestinationError(destination.label, other.installation!);
	}
}

/** This installation's scheduled backup files left by a server stopped mid-way (under the lock: nobody writes them). */
async function removeLeftovers(folder: string, installation: string): Promise<void> {
	const prefix = `atelier-${scheduledKind(installation)}-`;
	for (const name of await readdir(folder))
		if (name.startsWith(prefix) && /\.(?:partial|pending)$/.test(name))
			await rm(path.join(folder, name), { force: true });
}

/** What a backup that met a full disk says, on the page, in the log and in the e-mail: the product's words for it. */
const DISK_FULL =
	'espace disque plein : la sauvegarde n’a pas pu être écrite (libérez de la place dans le dossier des sauvegardes ou dans DATA_DIR)';

/** Less than this free where the archive was being written, after a failure: it failed for want of space. */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * Whether a run failed for want of space: ENOSPC anywhere in the error's causes, or the folder it wrote in left
 * (almost) no space — a write that met a full disk surfaces as whatever the stream on top of it said last (« write
 * after end », « already finalized or destroyed »), not always as ENOSPC.
 */
async function diskFullUnder(folder: string, error: unknown): Promise<boolean> {
	for (let cause = error; cause instanceof Error; cause = cause.cause)
		if ((cause as { code?: unknown }).code === 'ENOSPC' || cause.message.includes('ENOSPC')) return true;
	try {
		const stats = await statfs(folder);
		return stats.bavail * stats.bsize < FULL_BELOW_BYTES;
	} catch {
		return false;
	}
}

/** The cause in words an administrator can pass on: the error's message, never a stack or row data. */
function describeFailure(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const code = (error as { code?: unknown }).code;
	return `${message}${typeof code === 'string' && !message.includes(code) ? ` (${code})` : ''}`.slice(0, 500);
}

async function tellAdmins(deps: ScheduleDeps, at: Date, cause: string): Promise<void> {
	const { config, database } = deps;
	const admins = config.siteMode === 'platform' ? await listAdmins(database.db) : [];
	// Showcase mode has no accounts: the business's address is told.
	const recipients = admins.length ? admins : [{ name: 'à l’équipe', email: config.adminEmail }];
	const lastGood = await queries.lastGoodBackupAt(database.db);
	const page = config.siteMode === 'platform' ? new URL('/admin/sauvegarde', config.origin).href : null;
	for (const to of recipients)
		notify(deps.mail, to, 'backup-failed', backupFailed(to.name, { at, cause, lastGood }, page));
}

/** Starts the schedule when BACKUP_SCHEDULE is set (server start); stops it on shutdown. */
export function startBackupSchedule(deps: () => ScheduleDeps): void {
	const { config } = deps();
	const pattern = config.backup.schedule;
	if (!pattern) return;
	const job = new Cron(pattern, { protect: true }, async (self: Cron) => {
		const slot = self.currentRun() ?? new Date();
		// A run under way when the server stops is waited for (settleBackgroundTasks, bounded) before the database
		// closes: a backup sent but not yet pruned everywhere would leave the destinations disagreeing.
		await inBackground(
			runScheduledBackup(deps(), slot).then(
				(outcome) => {
					if (outcome.status === 'skipped') log.info('scheduled backup skipped', { reason: outcome.reason });
				},
				(error: unknown) => log.error('scheduled backup failed', { error })
			)
		);
	});
	// A run that a stop cut short is told of now, like a failed one (under the lock: not one being written).
	void inBackground(
		reportInterruptedBackups(deps()).catch((error: unknown) =>
			log.error('interrupted backups not reported', { error })
		)
	);
	// No new run once the server has begun to stop (the entry says so before it waits for the running one).
	process.once('sveltekit:shutdown', () => job.stop());
	log.info('backup schedule', {
		pattern,
		next: job.nextRun()?.toISOString() ?? null,
		folder: config.backup.dir,
		s3: config.backup.s3 ? `${config.backup.s3.endpoint.host}/${config.backup.s3.bucket}` : null
	});
	onShutdown(() => job.stop());
}
