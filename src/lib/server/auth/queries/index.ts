/**
 * The accounts domain's SQL, and nothing else: each function takes the database or a transaction. What writes a
 * session row (session-rows.ts) and what spends or writes a recovery code (recovery-codes.ts) are files of their
 * own, each importable by its one owner only (scripts/boundaries.js).
 */
import { and, count, desc, eq, gt, ilike, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { builtOnce } from '../../db/built-once';
import {
	deviceLinks,
	emailChanges,
	memberships,
	passwordTokens,
	pendingSignIns,
	recoveryCodes,
	sessions,
	totpFactors,
	users,
	type User
} from '../../db/schema';

export type { User };

export const userByEmail = async (db: DbOrTx, email: string): Promise<User | undefined> =>
	(await db.select().from(users).where(eq(users.email, email)))[0];

export const userById = async (db: DbOrTx, id: string): Promise<User | undefined> =>
	(await db.select().from(users).where(eq(users.id, id)))[0];

/** Throws PostgreSQL's unique violation (23505) when the e-mail is taken. */
export async function insertUser(
	db: DbOrTx,
	values: { email: string; name: string; passwordHash: string; isAdmin?: boolean }
): Promise<User> {
	const [user] = await db.insert(users).values(values).returning();
	return user!;
}

export async function setUserAdmin(db: DbOrTx, userId: string, isAdmin: boolean): Promise<void> {
	await db.update(users).set({ isAdmin }).where(eq(users.id, userId));
}

export async function countAdmins(db: DbOrTx): Promise<number> {
	const [row] = await db.select({ n: count() }).from(users).where(eq(users.isAdmin, true));
	return row?.n ?? 0;
}

/** Administrators whose sign-in asks no second factor (the dashboard's to-do list). */
export async function countAdminsWithoutSecondFactor(db: DbOrTx): Promise<number> {
	const [row] = await db
		.select({ n: count() })
		.from(users)
		.where(
			and(
				eq(users.isAdmin, true),
				sql`not exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${users.id} and ${totpFactors.confirmedAt} is not null)`
			)
		);
	return row?.n ?? 0;
}

export async function countUsers(db: DbOrTx): Promise<number> {
	const [row] = await db.select({ n: count() }).from(users);
	return row?.n ?? 0;
}

/** Holds a transaction-scoped advisory lock: concurrent holders of the same key run one after the other. */
/**
 * Serialises what decides how many admins exist: the first-admin setup, granting and removing admin (service.ts,
 * administration.ts).
 */
export const ADMIN_SETUP_LOCK = 7_346_129_002;

export async function lockForTransaction(tx: DbOrTx, key: number): Promise<void> {
	await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
}

export async function setUserName(db: DbOrTx, userId: string, name: string): Promise<void> {
	await db.update(users).set({ name }).where(eq(users.id, userId));
}

export async function setPasswordHash(db: DbOrTx, userId: string, passwordHash: string): Promise<void> {
	await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

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

export async function insertPasswordToken(
	db: DbOrTx,
	values: { hash: string; userId: string; purpose: 'welcome' | 'reset'; expiresAt: Date }
): Promise<void> {
	await db.insert(passwordTokens).values(values);
}

/** Marks the token used if it is unused and unexpired; returns its user, or nothing. One caller wins a race. */
export async function spendPasswordToken(db: DbOrTx, hash: string, now: Date) {
	const [row] = await db
		.update(passwordTokens)
		.set({ usedAt: now })
		.where(
			and(eq(passwordTokens.hash, hash), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now))
		)
		.returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
	return row;
}

export const passwordTokenByHash = async (db: DbOrTx, hash: string) =>
	(await db.select().from(passwordTokens).where(eq(passwordTokens.hash, hash)))[0];

export async function deleteUser(db: DbOrTx, id: string): Promise<void> {
	await db.delete(users).where(eq(users.id, id));
}

export type UserRole = 'admin' | 'member';

/** The admin's users list filters: a search on name or e-mail, a role. */
function usersWhere(filters: { search?: string; role?: UserRole }) {
	const conditions = [];
	if (filters.search) {
		// ILIKE's own wildcards in the search are matched literally.
		const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
		conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
	}
	if (filters.role) conditions.push(eq(users.isAdmin, filters.role === 'admin'));
	return conditions.length ? and(...conditions) : undefined;
}

/** One page of the admin's users list, newest first. */
export const selectUsers = (
	db: DbOrTx,
	filters: { search?: string; role?: UserRole },
	limit: number,
	offset: number
) =>
	db
		.select({
			id: users.id,
			name: users.name,
			email: users.email,
			isAdmin: users.isAdmin,
			createdAt: users.createdAt,
			lastSignInAt: users.lastSignInAt,
			twoFactorSince: totpFactors.confirmedAt
		})
		.from(users)
		.leftJoin(totpFactors, eq(totpFactors.userId, users.id))
		.where(usersWhere(filters))
		.orderBy(desc(users.createdAt), desc(users.id))
		.limit(limit)
		.offset(offset);

export async function countMatchingUsers(
	db: DbOrTx,
	filters: { search?: string; role?: UserRole }
): Promise<number> {
	const [row] = await db.select({ n: count() }).from(users).where(usersWhere(filters));
	return row?.n ?? 0;
}

export async function insertEmailChange(
	db: DbOrTx,
	values: { hash: string; userId: string; newEmail: string; expiresAt: Date }
): Promise<void> {
	// One pending change per account: a new request replaces the previous link.
	await db
		.delete(emailChanges)
		.where(and(eq(emailChanges.userId, values.userId), isNull(emailChanges.usedAt)));
	await db.insert(emailChanges).values(values);
}

export const emailChangeByHash = async (db: DbOrTx, hash: string) =>
	(await db.select().from(emailChanges).where(eq(emailChanges.hash, hash)))[0];

/** Marks the change used if it is unused and unexpired; returns it, or nothing. One caller wins a race. */
export async function spendEmailChange(db: DbOrTx, hash: string, now: Date) {
	const [row] = await db
		.update(emailChanges)
		.set({ usedAt: now })
		.where(and(eq(emailChanges.hash, hash), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
		.returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
	return row;
}

/** Throws PostgreSQL's unique violation (23505) when the address is taken. */
export async function setUserEmail(db: DbOrTx, userId: string, email: string): Promise<void> {
	await db.update(users).set({ email }).where(eq(users.id, userId));
}

// ——— Pending sign-ins (pending-sign-in.ts) and device links (sign-in.ts) ———

export async function insertPendingSignIn(
	db: DbOrTx,
	values: { hash: string; userId: string; expiresAt: Date }
): Promise<void> {
	await db.insert(pendingSignIns).values(values);
}

export const pendingSignInByHash = async (db: DbOrTx, hash: string) =>
	(await db.select().from(pendingSignIns).where(eq(pendingSignIns.hash, hash)))[0];

/** One UPDATE that spends it only while unused and unexpired: of two simultaneous sign-ins, one wins. */
export async function spendPendingSignIn(db: DbOrTx, hash: string, now: Date): Promise<boolean> {
	const spent = await db
		.update(pendingSignIns)
		.set({ usedAt: now })
		.where(
			and(eq(pendingSignIns.hash, hash), isNull(pendingSignIns.usedAt), gt(pendingSignIns.expiresAt, now))
		)
		.returning({ hash: pendingSignIns.hash });
	return spent.length === 1;
}

/** A password change or reset: no sign-in begun with the old password can be completed. */
export async function deletePendingSignIns(db: DbOrTx, userId: string): Promise<void> {
	await db.delete(pendingSignIns).where(eq(pendingSignIns.userId, userId));
}

/** A reset: device cookies issued before now no longer name a known browser (device.ts). */
export async function revokeDevices(db: DbOrTx, userId: string, now: Date): Promise<void> {
	await db.update(users).set({ devicesRevokedAt: now }).where(eq(users.id, userId));
}

export async function insertDeviceLink(
	db: DbOrTx,
	values: { hash: string; userId: string; expiresAt: Date }
): Promise<void> {
	await db.insert(deviceLinks).values(values);
}

/**
 * A password changed or reset, an e-mail changed: a device link e-mailed before (to the old address, perhaps read
 * by whoever the change shuts out) no longer makes a known browser.
 */
export async function voidUnspentDeviceLinks(db: DbOrTx, userId: string): Promise<void> {
	await db.delete(deviceLinks).where(and(eq(deviceLinks.userId, userId), isNull(deviceLinks.usedAt)));
}

/** Spends a device link: the account it names, or null when unknown, used or expired. */
export async function spendDeviceLink(db: DbOrTx, hash: string, now: Date): Promise<User | null> {
	const [spent] = await db
		.update(deviceLinks)
		.set({ usedAt: now })
		.where(and(eq(deviceLinks.hash, hash), isNull(deviceLinks.usedAt), gt(deviceLinks.expiresAt, now)))
		.returning({ userId: deviceLinks.userId });
	return spent ? ((await userById(db, spent.userId)) ?? null) : null;
}

/** Pending sign-ins and device links past their time (the daily maintenance). */
export async function purgeExpiredSignInTokens(db: DbOrTx, now: Date): Promise<number> {
	const pending = await db
		.delete(pendingSignIns)
		.where(lt(pendingSignIns.expiresAt, now))
		.returning({ hash: pendingSignIns.hash });
	const links = await db
		.delete(deviceLinks)
		.where(lt(deviceLinks.expiresAt, now))
		.returning({ hash: deviceLinks.hash });
	return pending.length + links.length;
}

// ——— The second factor (two-factor.ts): the TOTP key, its last step, the recovery codes ———

export type TotpFactor = typeof totpFactors.$inferSelect;

/** The account's factor, confirmed or pending; `forUpdate` locks it for the transaction (enrolment's code). */
export async function totpFactorOf(
	db: DbOrTx,
	userId: string,
	forUpdate = false
): Promise<TotpFactor | undefined> {
	const query = db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
	return (await (forUpdate ? query.for('update') : query))[0];
}

export const hasConfirmedFactor = async (db: DbOrTx, userId: string) =>
	(
		await db
			.select({ userId: totpFactors.userId })
			.from(totpFactors)
			.where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
	).length > 0;

/** A new pending key, replacing an earlier pending one. */
export async function upsertPendingFactor(db: DbOrTx, userId: string, encryptedKey: string): Promise<void> {
	await db
		.insert(totpFactors)
		.values({ userId, encryptedKey })
		.onConflictDoUpdate({
			target: totpFactors.userId,
			set: { encryptedKey, lastStep: null, createdAt: new Date() }
		});
}

export async function confirmFactor(db: DbOrTx, userId: string, at: Date, step: number): Promise<void> {
	await db.update(totpFactors).set({ confirmedAt: at, lastStep: step }).where(eq(totpFactors.userId, userId));
}

/**
 * Moves the factor's last used step to `step`, only forward: false when this code, or a later one, was already
 * used. One UPDATE, so two requests with the same code cannot both pass.
 */
export async function advanceTotpStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
	const moved = await db
		.update(totpFactors)
		.set({ lastStep: step })
		.where(
			and(eq(totpFactors.userId, userId), or(isNull(totpFactors.lastStep), lt(totpFactors.lastStep, step)))
		)
		.returning({ userId: totpFactors.userId });
	return moved.length === 1;
}

export async function deleteFactor(db: DbOrTx, userId: string): Promise<void> {
	await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
	await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}
