/**
 * Proving it again (issue "Trust", point 2): before the most sensitive admin actions — deleting a user, granting
 * or removing admin, removing someone's second factor — the admin types their password again, or a code when
 * their account has a second factor. It holds for ten minutes, for this session only.
 */
import { recordAudit, type Actor } from '../audit';
import type { Db } from '../db';
import { ValidationError } from '../errors';
import * as queries from './queries';
import { verifyOwnPassword } from './profile';
import { codeLanes, hasSecondFactor, verifySecondFactor } from './two-factor';

export const REAUTHENTICATION_LIFETIME_MS = 10 * 60 * 1000;

export const isRecentlyReauthenticated = (session: { reauthenticatedAt?: Date | null }, now = new Date()) =>
	!!session.reauthenticatedAt &&
	now.getTime() - session.reauthenticatedAt.getTime() < REAUTHENTICATION_LIFETIME_MS;

/** What the confirmation asks this account for. */
export const reauthenticationMethod = async (db: Db, userId: string) =>
	(await hasSecondFactor(db, userId)) ? ('code' as const) : ('password' as const);

/**
 * Checks the password (or the code, with a second factor) and marks the session as confirmed now; the audit trail
 * records it, so that the actions of the next ten minutes are seen with the confirmation that allowed them. The
 * attempt is the session's own (abuse/attempts.ts): whatever strangers do with the e-mail, it is never refused.
 */
export async function reauthenticate(
	db: Db,
	signingSecret: string,
	session: { id: string; userId: string },
	user: Actor,
	secret: string,
	now = new Date()
): Promise<void> {
	try {
		if ((await reauthenticationMethod(db, session.userId)) === 'code')
			await verifySecondFactor(db, signingSecret, session.userId, secret, codeLanes.session(session.id), now);
		else await verifyOwnPassword(db, { userId: session.userId, sessionId: session.id }, secret);
	} catch (error) {
		// The confirmation form has one field: the refusal goes under it.
		if (error instanceof ValidationError)
			throw new ValidationError({ secret: Object.values(error.fieldErrors).flat() });
		throw error;
	}
	await db.transaction(async (tx) => {
		await queries.setSessionReauthenticated(tx, session.id, now);
		await recordAudit(tx, user, {
			kind: 'admin.reauthenticated',
			subjectType: 'user',
			subjectId: session.userId
		});
	});
}
