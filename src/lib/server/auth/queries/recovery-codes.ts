/**
 * The recovery codes' SQL: imported by auth/two-factor.ts only, which spends a code inside `spendAttempt` (an
 * attempt is spent before a code is checked) and writes new ones at enrolment (scripts/boundaries.js).
 */
import { and, count, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { recoveryCodes } from '../../db/schema';

export async function replaceRecoveryCodeHashes(db: DbOrTx, userId: string, hashes: string[]): Promise<void> {
	await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
	await db.insert(recoveryCodes).values(hashes.map((hash) => ({ hash, userId })));
}

/** Spends an unused recovery code in the UPDATE that finds it: false when none matches. */
export async function spendRecoveryCode(
	db: DbOrTx,
	userId: string,
	hash: string,
	at: Date
): Promise<boolean> {
	const spent = await db
		.update(recoveryCodes)
		.set({ usedAt: at })
		.where(and(eq(recoveryCodes.hash, hash), eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
		.returning({ hash: recoveryCodes.hash });
	return spent.length === 1;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
	const [row] = await db
		.select({ n: count() })
		.from(recoveryCodes)
		.where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
	return row?.n ?? 0;
}
