/**
 * What opens a session (issue "The house, part 2", point 2): a proof that only this domain makes, never a bare
 * user id. A proof says what was checked — a password (sign-in, registration, the first admin), a password link
 * followed, or the second factor's code after either — and `openSession` (index.ts) lets a proof of a password or a
 * link open a session only for an account without a second factor: any other is sent to the code step.
 *
 * Unforgeable twice over: the type carries a brand no other module can name, and `openSession` accepts only an
 * object this module made (a private WeakSet), so a cast does not make one either.
 */
import type { SessionUser } from './session';

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
