/** The single-use tokens of signing in: password links, pending sign-ins (second factor to come), device links. */
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { deviceLinks, passwordTokens, pendingSignIns, users, type User } from '../../db/schema';
import { userById } from './users';

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
