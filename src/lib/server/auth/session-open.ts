/**
 * Opening a session: the one function that does, `createSession`, in a file of its own so that the guard holds it
 * whole (scripts/boundaries.js): only auth/proof.ts imports it, after the account's factors (`openSessionFrom`), and
 * only this file writes a session row (queries/session-rows.ts).
 */
import type { DbOrTx } from '../db';
import { log } from '../log';
import { keptUserAgent, networkOf } from './devices';
import { insertSession, insertSignIn } from './queries/session-rows';
import { SESSION_LIFETIME_MS, sessionIdOf, type ActiveSession, type SignInOrigin } from './session';

export async function createSession(
	db: DbOrTx,
	token: string,
	userId: string,
	now = new Date(),
	origin: SignInOrigin = {}
): Promise<ActiveSession> {
	const session = {
		id: sessionIdOf(token),
		userId,
		expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS)
	};
	await insertSession(
		db,
		{ ...session, userAgent: keptUserAgent(origin.userAgent), network: networkOf(origin.address) },
		now
	);
	// The training's record of the sign-in (its proof file) follows the session: when it cannot be written (a
	// full disk, an outage), the session stands and the log says what is missing.
	await insertSignIn(db, userId, now).catch((error) =>
		log.warn('sign-in not recorded for the proof file', { userId, error })
	);
	return session;
}
