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

const keyOf = (limit: Limit, subject: string) => `${limit.name}:${subject}`;

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

export async function clear(db: DbOrTx, limit: Limit, subject: string): Promise<void> {
	await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(limit, subject)));
}

export async function purgeExpired(db: DbOrTx): Promise<number> {
	const deleted = await db
		.delete(rateLimits)
		.where(lt(rateLimits.resetAt, sql`now()`))
		.returning({ key: rateLimits.key });
	return deleted.length;
}
