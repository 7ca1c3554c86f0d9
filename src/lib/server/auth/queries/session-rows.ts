/**
 * The one SQL that writes a session row: imported by auth/session-open.ts only, whose `createSession` is called from a
 * proof (auth/proof.ts) — so that no other file of the server can open a session for an id (scripts/boundaries.js).
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { sessions, signIns, users } from '../../db/schema';
import type { SessionRow } from './index';

export async function insertSession(db: DbOrTx, session: SessionRow, now = new Date()): Promise<void> {
	await db.insert(sessions).values({ ...session, createdAt: now });
	await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, session.userId));
}

/** A sign-in kept as long as the account, for a learner's proof file: when, never from where. */
export async function insertSignIn(db: DbOrTx, userId: string, at: Date): Promise<void> {
	await db.insert(signIns).values({ userId, at });
}
