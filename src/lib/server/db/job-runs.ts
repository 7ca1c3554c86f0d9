/** When each periodic job last ran (job_runs): leads retention. Shown to admins. (Backups have backup_runs.) */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from './index';
import { jobRuns } from './schema';

export async function recordJobRun(db: DbOrTx, name: string, at: Date, detail: string): Promise<void> {
	await db
		.insert(jobRuns)
		.values({ name, lastRunAt: at, detail })
		.onConflictDoUpdate({ target: jobRuns.name, set: { lastRunAt: at, detail } });
}

export async function findJobRun(
	db: DbOrTx,
	name: string
): Promise<{ at: Date; detail: string | null } | null> {
	const [row] = await db.select().from(jobRuns).where(eq(jobRuns.name, name));
	return row ? { at: row.lastRunAt, detail: row.detail } : null;
}

/**
 * Takes today's turn of a job that one instance must run (the daily reminders): true for the one caller that
 * recorded its run, false for every other one since `since` — in one statement, so that of three instances waking at
 * once, one runs it.
 */
export async function claimJobRun(db: DbOrTx, name: string, at: Date, since: Date): Promise<boolean> {
	const claimed = await db
		.insert(jobRuns)
		.values({ name, lastRunAt: at, detail: null })
		.onConflictDoUpdate({
			target: jobRuns.name,
			set: { lastRunAt: at, detail: null },
			setWhere: sql`${jobRuns.lastRunAt} < ${since.toISOString()}::timestamptz`
		})
		.returning({ name: jobRuns.name });
	return claimed.length === 1;
}
