/**
 * Checking a password against its hash: a file of its own so that the guard holds it whole (scripts/boundaries.js):
 * only auth/sign-in.ts imports it, inside `spendAttempt` — an attempt is spent before a password is checked.
 */
import { verify } from '@node-rs/argon2';
import { inHashingSlot } from './hashing-slots';
import { hashPassword } from './password';

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
	try {
		return await inHashingSlot(() => verify(passwordHash, password));
	} catch {
		return false;
	}
}

/**
 * A hash of nothing in particular, verified when the e-mail is unknown so that a sign-in for a missing
 * account spends the same time as one for an existing account (no timing oracle on who is registered).
 */
let dummyHash: Promise<string> | undefined;
export async function spendOneHash(password: string): Promise<void> {
	dummyHash ??= hashPassword('atelier-timing-equaliser');
	await verifyPassword(await dummyHash, password);
}
