/**
 * Sessions as requests read them (`sessionWithUser`, built once) and as their owner ends them; writing one is
 * session-rows.ts'.
 */
import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { builtOnce } from '../../db/built-once';
import { memberships, sessions, totpFactors, users } from '../../db/schema';

export interface SessionRow {
	id: string;
	userId: string;
	expiresAt: Date;
	userAgent?: string | null;
	network?: string | null;
}

/**
 * A session with its user, whether they have a second factor, and their latest membership (read here, not
 * written: the memberships domain owns that table), in one query: a member's page needs nothing more to know who
 * is asking and what they may read.
 */
export async function sessionWithUser(db: DbOrTx, id: string) {
	const [row] = await sessionWithUserQuery(db).execute({ id });
	return row;
}

// Every signed-in request runs it: built once (db/built-once.ts), not at each request.
const sessionWithUserQuery = builtOnce((db) => {
	const membership = db
		.select({
			status: memberships.status,
			currentPeriodEnd: memberships.currentPeriodEnd,
			stripeCustomerId: memberships.stripeCustomerId
		})
		.from(memberships)
		.where(eq(memberships.userId, sessions.userId))
		.orderBy(desc(memberships.stateAt))
		.limit(1)
		.as('membership');
	return db
		.select({
			id: sessions.id,
			userId: sessions.userId,
			expiresAt: sessions.expiresAt,
			lastSeenAt: sessions.lastSeenAt,
			reauthenticatedAt: sessions.reauthenticatedAt,
			email: users.email,
			name: users.name,
			isAdmin: users.isAdmin,
			twoFactorSince: totpFactors.confirmedAt,
			membershipStatus: membership.status,
			membershipPeriodEnd: membership.currentPeriodEnd,
			membershipCustomerId: membership.stripeCustomerId
		})
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.leftJoin(totpFactors, eq(totpFactors.userId, sessions.userId))
		.leftJoinLateral(membership, sql`true`)
		.where(eq(sessions.id, sql.placeholder('id')))
		.prepare('session_with_user');
});

export async function setSessionReauthenticated(db: DbOrTx, id: string, at: Date): Promise<void> {
	await db.update(sessions).set({ reauthenticatedAt: at }).where(eq(sessions.id, id));
}

export async function setSessionExpiry(db: DbOrTx, id: string, expiresAt: Date): Promise<void> {
	await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function setSessionLastSeen(db: DbOrTx, id: string, lastSeenAt: Date): Promise<void> {
	await db.update(sessions).set({ lastSeenAt }).where(eq(sessions.id, id));
}

/** A user's open sessions, the most recently used first. */
export async function openSessionsOf(db: DbOrTx, userId: string, now: Date) {
	return db
		.select({
			id: sessions.id,
			createdAt: sessions.createdAt,
			lastSeenAt: sessions.lastSeenAt,
			userAgent: sessions.userAgent,
			network: sessions.network
		})
		.from(sessions)
		.where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
		.orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`));
}

/** Ends one of the user's sessions; false when it is not theirs (or already ended). */
export async function deleteSessionOf(db: DbOrTx, userId: string, id: string): Promise<boolean> {
	const deleted = await db
		.delete(sessions)
		.where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
		.returning({ id: sessions.id });
	return deleted.length > 0;
}

export async function deleteSession(db: DbOrTx, id: string): Promise<void> {
	await db.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteOtherSessions(db: DbOrTx, userId: string, keepSessionId: string): Promise<void> {
	await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)));
}

export async function deleteExpiredSessions(db: DbOrTx): Promise<number> {
	const deleted = await db
		.delete(sessions)
		.where(lt(sessions.expiresAt, sql`now()`))
		.returning({ id: sessions.id });
	return deleted.length;
}

export async function deleteAllSessions(db: DbOrTx, userId: string): Promise<void> {
	await db.delete(sessions).where(eq(sessions.userId, userId));
}
