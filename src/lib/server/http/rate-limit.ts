/**
 * Fixed-window counters kept in PostgreSQL, so that every instance sees the same counts. One atomic upsert per
 * hit; a window that has ended starts again at 1. Also slow-downs (`reserve`), kept in the same table.
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

/** Throws RateLimitedError when the limit is already reached, without counting. */
export async function check(db: DbOrTx, limit: Limit, subject: string): Promise<void> {
	const [row] = await db
		.select({
			count: rateLimits.count,
			retryAfter: sql<number>`ceil(extract(epoch from ${rateLimits.resetAt} - now()))::int`
		})
		.from(rateLimits)
		.where(and(eq(rateLimits.key, keyOf(limit, subject)), gt(rateLimits.resetAt, sql`now()`)));
	if (row && row.count >= limit.max) throw new RateLimitedError(Math.max(1, row.retryAfter));
}

/**
 * A slow-down instead of a lock: the first `free` attempts go through at once, then each further attempt must wait
 * since the previous one 1 s, 2 s, 4 s… doubling up to `maxDelaySeconds`. Nobody can shut the subject out (the
 * longest wait is the cap), yet whoever makes many attempts gets at most one per `maxDelaySeconds`.
 */
export interface SlowDown {
	/** Names the counter, e.g. "sign-in-account". */
	name: string;
	/** Attempts allowed back to back before any wait. */
	free: number;
	/** The longest wait between two attempts. */
	maxDelaySeconds: number;
	/** The attempts are forgotten this long after the last one. Must be well over `maxDelaySeconds`. */
	memorySeconds: number;
}

/** The wait, in seconds, that must separate attempt `count + 1` from attempt `count`. Mirrors the SQL below. */
export function slowDownDelay(policy: SlowDown, count: number): number {
	if (count < policy.free) return 0;
	return Math.min(policy.maxDelaySeconds, 2 ** Math.min(count - policy.free, 30));
}

/**
 * Reserves one attempt for `subject`, or throws RateLimitedError with the wait when it is too early. Call it
 * BEFORE the expensive check it guards (a password hash): the reservation is a single conditional upsert, so
 * however many requests arrive at once, the database lets through only as many as the policy allows, on every
 * instance. The row keeps `count` (attempts since the last `clear`) and, in `reset_at`, the moment it is
 * forgotten: the last attempt plus `memorySeconds`, so the last attempt's time is `reset_at - memory` and
 * `purgeExpired` drops forgotten rows with the rest.
 */
export async function reserve(db: DbOrTx, policy: SlowDown, subject: string): Promise<void> {
	const memory = sql`make_interval(secs => ${policy.memorySeconds})`;
	const delay = sql`case when ${rateLimits.count} < ${policy.free} then 0 else least(${policy.maxDelaySeconds}::float8, power(2::float8, least(${rateLimits.count} - ${policy.free}, 30))) end`;
	const nextAllowed = sql`${rateLimits.resetAt} - ${memory} + make_interval(secs => ${delay})`;
	const reserved = await db
		.insert(rateLimits)
		.values({ key: keyOf(policy, subject), count: 1, resetAt: sql`now() + ${memory}` })
		.onConflictDoUpdate({
			target: rateLimits.key,
			set: {
				count: sql`case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.count} + 1 end`,
				resetAt: sql`now() + ${memory}`
			},
			// Evaluated on the locked, current row: concurrent reservations queue up behind each other.
			setWhere: sql`${rateLimits.resetAt} <= now() or ${nextAllowed} <= now()`
		})
		.returning({ count: rateLimits.count });
	if (reserved.length) return;
	const [row] = await db
		.select({ wait: sql<number>`ceil(extract(epoch from ${nextAllowed} - now()))::int` })
		.from(rateLimits)
		.where(eq(rateLimits.key, keyOf(policy, subject)));
	throw new RateLimitedError(Math.min(policy.maxDelaySeconds, Math.max(1, row?.wait ?? 1)));
}

export async function clear(db: DbOrTx, limit: { name: string }, subject: string): Promise<void> {
	await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(limit, subject)));
}

export async function purgeExpired(db: DbOrTx): Promise<number> {
	const deleted = await db
		.delete(rateLimits)
		.where(lt(rateLimits.resetAt, sql`now()`))
		.returning({ key: rateLimits.key });
	return deleted.length;
}
