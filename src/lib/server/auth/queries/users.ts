/**
 * The accounts themselves: a user by e-mail or id, its name, password hash, role and e-mail address; the admin's
 * list.
 */
import { and, count, desc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { emailChanges, totpFactors, users, type User } from '../../db/schema';

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
