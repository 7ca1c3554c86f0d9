/** The second factor (two-factor.ts): the TOTP key and its last step; the recovery codes are recovery-codes.ts'. */
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { recoveryCodes, totpFactors } from '../../db/schema';

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
