/**
 * Between the password and the second factor (issue "Trust", point 2): a signed, short-lived token naming the
 * account whose password was right, carried by an HttpOnly cookie to /login/code. It opens nothing by itself:
 * only a right code turns it into a session.
 */
import { sign, verifySignature } from '../signing';

export const PENDING_SIGN_IN_LIFETIME_MS = 10 * 60 * 1000;

const signed = (userId: string, expires: number) => `pending-sign-in:${userId}.${expires}`;

export function issuePendingSignIn(secret: string, userId: string, now = Date.now()): string {
	const expires = now + PENDING_SIGN_IN_LIFETIME_MS;
	return `${userId}.${expires}.${sign(secret, signed(userId, expires))}`;
}

/** The account a valid, unexpired token names; null for anything else. */
export function pendingUserOf(secret: string, token: string | undefined, now = Date.now()): string | null {
	if (!token || token.length > 256) return null;
	const [userId, expiresText, signature, ...rest] = token.split('.');
	const expires = Number(expiresText);
	if (!userId || !signature || rest.length || !Number.isSafeInteger(expires) || expires <= now) return null;
	return verifySignature(secret, signed(userId, expires), signature) ? userId : null;
}
