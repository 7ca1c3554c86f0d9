/** The backups' own SQL (backup_runs, the installation's id), and nothing else: each function takes the database or a transaction. */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { backupRuns, installation } from '../db/schema';

export type BackupRun = typeof backupRuns.$inferSelect;
export type BackupTrigger = 'schedule' | 'download' | 'command';
export type Verification = 'read-back' | 'restored';

/** A backup that is over: written, or refused by nothing. */
export async function recordBackupRun(
	db: DbOrTx,
	run: {
		trigger: BackupTrigger;
		fileName: string | null;
		bytes: number | null;
		destinations: string[];
		verified: Verification | null;
		encrypted: boolean;
	}
): Promise<void> {
	await db.insert(backupRuns).values({ ...run, status: 'ok', finishedAt: new Date() });
}

export async function startBackupRun(
	db: DbOrTx,
	trigger: BackupTrigger,
	fileName: string | null
): Promise<string> {
	const [row] = await db
		.insert(backupRuns)
		.values({ trigger, fileName, status: 'running' })
		.returning({ id: backupRuns.id });
	return row!.id;
}

export async function finishBackupRun(
	db: DbOrTx,
	id: string,
	outcome: { bytes: number; destinations: string[]; verified: Verification; encrypted: boolean }
): Promise<void> {
	await db
		.update(backupRuns)
		.set({ ...outcome, status: 'ok', finishedAt: new Date() })
		.where(eq(backupRuns.id, id));
}

export async function failBackupRun(db: DbOrTx, id: string, error: string): Promise<void> {
	await db
		.update(backupRuns)
		.set({ status: 'failed', error, finishedAt: new Date() })
		.where(eq(backupRuns.id, id));
}

/** The newest first. A run left `running` by a server that stopped mid-way shows as such. */
export function listBackupRuns(db: DbOrTx, limit: number): Promise<BackupRun[]> {
	return db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(limit);
}

/** When the newest backup that went through ended (any trigger but a bare download, which nobody checked). */
export async function lastGoodBackupAt(db: DbOrTx): Promise<Date | null> {
	const [row] = await db
		.select({ at: sql<Date>`max(${backupRuns.finishedAt})`.mapWith(backupRuns.finishedAt) })
		.from(backupRuns)
		.where(and(eq(backupRuns.status, 'ok'), isNotNull(backupRuns.verified)));
	return row?.at ?? null;
}

/** The newest backup that went through (as `lastGoodBackupAt` chooses it): when it ended and its size. */
export async function lastGoodBackup(db: DbOrTx): Promise<{ at: Date; bytes: number } | null> {
	const [row] = await db
		.select({ at: backupRuns.finishedAt, bytes: backupRuns.bytes })
		.from(backupRuns)
		.where(and(eq(backupRuns.status, 'ok'), isNotNull(backupRuns.verified), isNotNull(backupRuns.finishedAt)))
		.orderBy(desc(backupRuns.finishedAt))
		.limit(1);
	return row ? { at: row.at!, bytes: row.bytes ?? 0 } : null;
}

/** When a backup was last proven restorable by restoring it (the schedule does it weekly). */
export async function lastRestoreCheckAt(db: DbOrTx): Promise<Date | null> {
	const [row] = await db
		.select({ at: sql<Date>`max(${backupRuns.finishedAt})`.mapWith(backupRuns.finishedAt) })
		.from(backupRuns)
		.where(and(eq(backupRuns.status, 'ok'), eq(backupRuns.verified, 'restored')));
	return row?.at ?? null;
}

/** Whether this slot's scheduled backup (named after the slot) went through: another instance made it. */
export async function slotBackedUp(db: DbOrTx, fileName: string): Promise<boolean> {
	const [row] = await db
		.select({ id: backupRuns.id })
		.from(backupRuns)
		.where(
			and(eq(backupRuns.trigger, 'schedule'), eq(backupRuns.status, 'ok'), eq(backupRuns.fileName, fileName))
		)
		.limit(1);
	return Boolean(row);
}

/**
 * Scheduled runs still `running`: a server stopped in the middle of one. Called under the schedule's lock, when no
 * instance can be writing one.
 */
export async function abandonUnfinishedScheduled(db: DbOrTx): Promise<{ id: string; startedAt: Date }[]> {
	return db
		.update(backupRuns)
		.set({ status: 'failed', error: INTERRUPTED, finishedAt: new Date() })
		.where(and(eq(backupRuns.trigger, 'schedule'), eq(backupRuns.status, 'running')))
		.returning({ id: backupRuns.id, startedAt: backupRuns.startedAt });
}

/** What an interrupted run says, on the page and in the e-mail. */
export const INTERRUPTED = 'interrompue : le serveur s’est arrêté pendant la sauvegarde';

/**
 * This installation's id: made by the first instance that asks (twelve random hex digits), the same for every
 * instance afterwards — the insert does nothing when a row is there, whoever made it first.
 */
export async function installationId(db: DbOrTx, candidate: string): Promise<string> {
	await db.insert(installation).values({ id: candidate }).onConflictDoNothing();
	const [row] = await db.select({ id: installation.id }).from(installation);
	return row!.id;
}
