/**
 * What opens a session (issue "The house, part 2", point 2): a proof that only this domain makes, never a bare
 * user id. A proof says what was checked — a password (sign-in, registration, the first admin), a password link
 * followed, or the second factor's code after either — and `openSession` (index.ts) lets a proof of a password or a
 * link open a session only for an account without a second factor: any other is sent to the code step.
 *
 * Unforgeable twice over: the type carries a brand no other module can name, and `openSession` accepts only an
 * object this module made (a private WeakSet), so a cast does not make one either.
 */
import type { Db } from '../db';
import { generateSessionToken, type ActiveSession, type SessionUser, type SignInOrigin } from './session';
import { createSession } from './session-open';
import { beginSecondFactor } from './sign-in';
import { hasSecondFactor } from './two-factor';

declare const madeHere: unique symbol;

export interface SignInProof {
	readonly user: SessionUser;
	/** What was checked: the factors still follow a password or a link; a code is the last of them. */
	readonly by: 'password' | 'link' | 'second-factor';
	readonly [madeHere]: true;
}

const made = new WeakSet<object>();

export function proofOf(user: SessionUser, by: SignInProof['by']): SignInProof {
	const proof = Object.freeze({ user, by }) as SignInProof;
	made.add(proof);
	return proof;
}

/** Throws for anything this module did not make: a programming error, never a visitor's. */
export function assertProof(proof: SignInProof): void {
	if (!made.has(proof)) throw new Error('A session opens only from a proof made by the auth domain.');
}

/**
 * Where a proof leads: a new session (its token, for the cookie, never stored, and its row) — or, when the proof is
 * of a password or a link and the account has a second factor, the code step's pending sign-in, whatever proved
 * the password. The one way a session opens.
 */
export async function openSessionFrom(
	db: Db,
	proof: SignInProof,
	origin: SignInOrigin
): Promise<
	{ next: 'session'; token: string; session: ActiveSession } | { next: 'code'; pendingToken: string }
> {
	assertProof(proof);
	if (proof.by !== 'second-factor' && (await hasSecondFactor(db, proof.user.id)))
		return { next: 'code', pendingToken: await beginSecondFactor(db, proof.user.id) };
	const token = generateSessionToken();
	return {
		next: 'session',
		token,
		session: await createSession(db, token, proof.user.id, new Date(), origin)
	};
}
