/**
 * The abuse domain's SQL: counters kept in PostgreSQL (the rate_limits table), so that every instance sees the same
 * counts — fixed windows (one atomic upsert per request; a window that has ended starts again at 1), the accounts'
 * slow-down, and the spent form tokens. Private to abuse/: other domains count through attempts.ts (ESLint).
 */
import { and, eq, gt, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { rateLimits } from '../db/schema';

export interface Limit {
	/** Names the counter, e.g. "login-account". */
	name: string;
	max: number;
	windowSeconds: number;
}

const keyOf = (limit: { name: string }, subject: string) => `${limit.name}:${subject}`;

/** Counts one more event and returns the count in the current window. */
export async function increment(
	db: DbOrTx,
	limit: Limit,
	subject: string
): Promise<{ count: number; retryAfter: number }> {
	const [row] = await db
		.insert(rateLimits)
		.values({
			key: keyOf(limit, subject),
			count: 1,
			resetAt: sql`now() + make_interval(secs => ${limit.windowSeconds})`
		})
		.onConflictDoUpdate({
			target: rateLimits.key,
			set: {
				count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
				resetAt: sql`case when ${rateLimits.resetAt} <= now() then now() + make_interval(secs => ${limit.windowSeconds}) else ${rateLimits.resetAt} end`
			}
		})
		.returning({
			count: rateLimits.count,
			retryAfter: sql<number>`ceil(extract(epoch from ${rateLimits.resetAt} - now()))::int`
		});
	return row!;
}

/**
 * Takes one of the window's `max` places, atomically, or none: the upsert counts only while the window has room
 * (its WHERE is evaluated on the row it locked), so N simultaneous callers get at most the places left, however
 * they interleave on PostgreSQL. Returns null when a place was taken, else the seconds until the window ends.
 * Secret checks go through abuse/attempts.ts, which reserves before it verifies.
 */
export async function take(db: DbOrTx, limit: Limit, subject: string): Promise<number | null> {
	const ended = sql`${rateLimits.resetAt} <= now()`;
	const window = sql`make_interval(secs => ${limit.windowSeconds})`;
	const taken = await db
		.insert(rateLimits)
		.values({ key: keyOf(limit, subject), count: 1, resetAt: sql`now() + ${window}` })
		.onConflictDoUpdate({
			target: rateLimits.key,
			set: {
				count: sql`case when ${ended} then 1 else ${rateLimits.count} + 1 end`,
				resetAt: sql`case when ${ended} then now() + ${window} else ${rateLimits.resetAt} end`
			},
			setWhere: sql`(${ended} or ${rateLimits.count} < ${limit.max})`
		})
		.returning({ count: rateLimits.count });
	if (taken.length) return null;
	const [row] = await db
		.select({ wait: sql<number>`ceil(extract(epoch from ${rateLimits.resetAt} - now()))::int` })
		.from(rateLimits)
		.where(eq(rateLimits.key, keyOf(limit, subject)));
	return Math.max(1, row?.wait ?? 1);
}

/**
 * Gives back one place taken by `take` (an attempt that turned out right counts for nothing); the last place
 * given back removes the row, so that a right attempt leaves no trace.
 */
export async function giveBack(db: DbOrTx, limit: Limit, subject: string): Promise<void> {
	const key = keyOf(limit, subject);
	// One atomic decrement: the count is right whatever runs beside it (an update « where count > 1 » followed by a
	// delete « where count <= 1 » would lose the place of a take that raised the count between the two).
	const [lowered] = await db
		.update(rateLimits)
		.set({ count: sql`${rateLimits.count} - 1` })
		.where(and(eq(rateLimits.key, key), gt(rateLimits.count, 0), gt(rateLimits.resetAt, sql`now()`)))
		.returning({ count: rateLimits.count });
	// The last place given back: the row goes, unless a take has come since (its count is then right as it is).
	if (lowered && lowered.count === 0)
		await db.delete(rateLimits).where(and(eq(rateLimits.key, key), lte(rateLimits.count, 0)));
}

/**
 * A slow-down rather than a lock (OWASP ASVS 5.0 §6.3.1): a subject (an account) gets `free` attempts, then one
 * attempt per interval that doubles with each further attempt, up to `maxDelaySeconds`. Nobody is ever locked
 * out for longer than that cap, yet a guesser — from however many addresses — meets the same pace. The counter
 * is forgotten `memorySeconds` after the last attempt, and cleared by a success.
 *
 * Stored in a rate_limits row: `count` = attempts since the last success, `reset_at` = last attempt + memory.
 */
export interface SlowDown {
	name: string;
	free: number;
	maxDelaySeconds: number;
	memorySeconds: number;
}

/**
 * Reserves one attempt, atomically: the row is locked by the upsert, so N simultaneous attempts are counted one
 * after the other and only those the pace allows get through. Null when reserved, else the seconds to wait.
 * Secret checks reserve through abuse/attempts.ts, before the expensive or sensitive check, not after.
 */
export async function reserveSlowed(db: DbOrTx, rule: SlowDown, subject: string): Promise<number | null> {
	const memory = sql`make_interval(secs => ${rule.memorySeconds})`;
	const lastAttempt = sql`(${rateLimits.resetAt} - ${memory})`;
	const delay = sql`(case when ${rateLimits.count} < ${rule.free} then 0 else least(power(2, ${rateLimits.count} - ${rule.free}), ${rule.maxDelaySeconds}) end)`;
	const forgotten = sql`${rateLimits.resetAt} <= now()`;
	const allowed = sql`(${forgotten} or now() >= ${lastAttempt} + make_interval(secs => ${delay}))`;
	const reserved = await db
		.insert(rateLimits)
		.values({ key: keyOf(rule, subject), count: 1, resetAt: sql`now() + ${memory}` })
		.onConflictDoUpdate({
			target: rateLimits.key,
			set: {
				count: sql`case when ${forgotten} then 1 else ${rateLimits.count} + 1 end`,
				resetAt: sql`now() + ${memory}`
			},
			setWhere: allowed
		})
		.returning({ count: rateLimits.count });
	if (reserved.length) return null;
	const [row] = await db
		.select({
			wait: sql<number>`ceil(extract(epoch from ${lastAttempt} + make_interval(secs => ${delay}) - now()))::int`
		})
		.from(rateLimits)
		.where(eq(rateLimits.key, keyOf(rule, subject)));
	return Math.min(rule.maxDelaySeconds, Math.max(1, row?.wait ?? 1));
}

export async function clear(db: DbOrTx, limit: Limit | SlowDown, subject: string): Promise<void> {
	await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(limit, subject)));
}

export async function purgeExpired(db: DbOrTx): Promise<number> {
	const deleted = await db
		.delete(rateLimits)
		.where(lt(rateLimits.resetAt, sql`now()`))
		.returning({ key: rateLimits.key });
	return deleted.length;
}

/** Records a form token as used, once: true the first time, false for a replay (abuse/form-token.ts). */
export async function insertSpentFormToken(db: DbOrTx, token: string, expiresAt: Date): Promise<boolean> {
	const spent = await db
		.insert(rateLimits)
		.values({ key: `form-token:${token}`, count: 1, resetAt: expiresAt })
		.onConflictDoNothing()
		.returning({ key: rateLimits.key });
	return spent.length === 1;
}
