/** When each periodic job last ran (job_runs): leads retention. Shown to admins. (Backups have backup_runs.) */
import { eq } from 'drizzle-orm';
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
