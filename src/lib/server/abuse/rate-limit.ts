/**
 * Fixed-window counters kept in PostgreSQL, so that every instance sees the same counts. One atomic upsert per
 * hit; a window that has ended starts again at 1.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { rateLimits } from '../db/schema';
import { RateLimitedError } from '../errors';

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

/** Counts one more event; throws RateLimitedError when this one is past the limit. */
export async function hit(db: DbOrTx, limit: Limit, subject: string): Promise<void> {
	const { count, retryAfter } = await increment(db, limit, subject);
	if (count > limit.max) throw new RateLimitedError(Math.max(1, retryAfter));
}

/** The seconds until the limit opens again when it is already reached (without counting); null while open. */
export async function closedFor(db: DbOrTx, limit: Limit, subject: string): Promise<number | null> {
	const [row] = await db
		.select({
			count: rateLimits.count,
			retryAfter: sql<number>`ceil(extract(epoch from ${rateLimits.resetAt} - now()))::int`
		})
		.from(rateLimits)
		.where(and(eq(rateLimits.key, keyOf(limit, subject)), gt(rateLimits.resetAt, sql`now()`)));
	return row && row.count >= limit.max ? Math.max(1, row.retryAfter) : null;
}

/** Throws RateLimitedError when the limit is already reached, without counting. */
export async function check(db: DbOrTx, limit: Limit, subject: string): Promise<void> {
	const wait = await closedFor(db, limit, subject);
	if (wait !== null) throw new RateLimitedError(wait);
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
 * after the other and only those the pace allows get through. Throws RateLimitedError (with the wait) otherwise.
 * Reserve before the expensive or sensitive check (hashing a password), not after.
 */
export async function reserveAttempt(db: DbOrTx, rule: SlowDown, subject: string): Promise<void> {
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
	if (reserved.length) return;
	const [row] = await db
		.select({
			wait: sql<number>`ceil(extract(epoch from ${lastAttempt} + make_interval(secs => ${delay}) - now()))::int`
		})
		.from(rateLimits)
		.where(eq(rateLimits.key, keyOf(rule, subject)));
	throw new RateLimitedError(Math.min(rule.maxDelaySeconds, Math.max(1, row?.wait ?? 1)));
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
