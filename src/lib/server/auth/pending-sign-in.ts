/**
 * Between the password and the second factor (issue "Trust", point 2; "Trust, part 2", point 5): a random token,
 * carried by an HttpOnly cookie to /login/code, naming the account whose password was right. It opens nothing by
 * itself: only a right code turns it into a session, and that spends it. Only its hash is stored; a password change
 * or reset deletes the account's pending sign-ins, so a token outlives neither its use nor the password it proved.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../db';
import * as queries from './queries';

export const PENDING_SIGN_IN_LIFETIME_MS = 10 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const wellFormed = (token: string | undefined): token is string => !!token && /^[\w-]{43}$/.test(token);

export async function issuePendingSignIn(db: DbOrTx, userId: string, now = Date.now()): Promise<string> {
	const token = randomBytes(32).toString('base64url');
	await queries.insertPendingSignIn(db, {
		hash: hashOf(token),
		userId,
		expiresAt: new Date(now + PENDING_SIGN_IN_LIFETIME_MS)
	});
	return token;
}

/** The account a valid token names (unused, unexpired); null for anything else. */
export async function pendingUserOf(
	db: DbOrTx,
	token: string | undefined,
	now = new Date()
): Promise<string | null> {
	if (!wellFormed(token)) return null;
	const row = await queries.pendingSignInByHash(db, hashOf(token));
	return row && !row.usedAt && row.expiresAt > now ? row.userId : null;
}

/** Spends the token for the sign-in it completes; false when it was spent (or ended) meanwhile. */
export async function spendPendingSignIn(db: DbOrTx, token: string, now = new Date()): Promise<boolean> {
	return wellFormed(token) && (await queries.spendPendingSignIn(db, hashOf(token), now));
}
