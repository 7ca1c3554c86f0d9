/** Registration, sign-in, first-admin setup, profile changes: the rules of SEED.md part 5 and issue "Accounts". */
import { count, eq, sql } from 'drizzle-orm';
import type { RegisterInput } from '$lib/schemas/auth';
import type { Db, DbOrTx } from '../db';
import { users } from '../db/schema';
import { AppError, ConflictError, ValidationError } from '../errors';
import * as rateLimit from '../http/rate-limit';
import { hashPassword, passwordProblems, spendOneHash, verifyPassword } from './password';
import { invalidateOtherSessions, type SessionUser } from './session';

const MINUTES_15 = 15 * 60;

export const limits = {
	signInAddress: { name: 'sign-in-address', max: 30, windowSeconds: MINUTES_15 },
	registerAddress: { name: 'register-address', max: 20, windowSeconds: 60 * 60 },
	setupAddress: { name: 'setup-address', max: 10, windowSeconds: MINUTES_15 }
} satisfies Record<string, rateLimit.Limit>;

/**
 * Password checks per account (OWASP ASVS 5.0 §6.3, Authentication cheat sheet): a slow-down, not a lock, so that a
 * stranger's failures never shut the owner out. The numbers:
 * - 5 attempts back to back, enough for a few typos without any wait;
 * - then 1, 2, 4, 8, 16, 32 s between attempts, and 60 s from then on: whatever a stranger did, the owner waits at
 *   most 60 s before the next password check;
 * - so a guesser, however many addresses they use, gets 5 + 6 checks in the first ~63 s and then one a minute:
 *   at most ~70 an hour per account (ASVS 4's V2.2.1 ceiling was 100), and against argon2id hashes of passwords
 *   that are not on the common-password list;
 * - the attempts are forgotten an hour after the last one, or at once on a successful sign-in.
 * The per-address limit above still stops one address from trying many accounts.
 */
export const accountSlowDown = {
	name: 'sign-in-account',
	free: 5,
	maxDelaySeconds: 60,
	memorySeconds: 60 * 60
} satisfies rateLimit.SlowDown;

/** Wrong e-mail or password: deliberately the same answer for both. */
export class InvalidCredentialsError extends AppError {
	constructor() {
		super(400, 'Adresse e-mail ou mot de passe incorrect.');
	}
}

const ADMIN_SETUP_LOCK = 7_346_129_002;

const toSessionUser = (u: typeof users.$inferSelect): SessionUser => ({
	id: u.id,
	email: u.email,
	name: u.name,
	isAdmin: u.isAdmin
});

function assertPasswordPolicy(password: string, field = 'password') {
	const problems = passwordProblems(password);
	if (problems.length) throw new ValidationError({ [field]: problems });
}

const isUniqueViolation = (error: unknown): boolean => {
	const e = error as { code?: string; cause?: { code?: string } };
	return e?.code === '23505' || e?.cause?.code === '23505';
};

const emailTaken = () => new ValidationError({ email: ['Un compte existe déjà avec cette adresse e-mail.'] });

export async function register(db: Db, input: RegisterInput, address: string): Promise<SessionUser> {
	await rateLimit.hit(db, limits.registerAddress, address);
	assertPasswordPolicy(input.password);
	const passwordHash = await hashPassword(input.password);
	try {
		const [user] = await db
			.insert(users)
			.values({ email: input.email.toLowerCase(), name: input.name, passwordHash })
			.returning();
		return toSessionUser(user!);
	} catch (error) {
		if (isUniqueViolation(error)) throw emailTaken();
		throw error;
	}
}

/**
 * Checks the e-mail and password. An address over its limit of failures is refused (429) before anything else;
 * then one attempt is reserved on the account's slow-down, atomically and before any hash is computed, so that
 * simultaneous requests cannot check more passwords than the slow-down allows. The account is keyed by the e-mail
 * whether or not it exists: the answers (and the waits) are the same either way.
 */
export async function signIn(db: Db, email: string, password: string, address: string): Promise<SessionUser> {
	const account = email.trim().toLowerCase();
	await rateLimit.check(db, limits.signInAddress, address);
	await rateLimit.reserve(db, accountSlowDown, account);
	const [user] = await db.select().from(users).where(eq(users.email, account));
	const valid = user
		? await verifyPassword(user.passwordHash, password)
		: (await spendOneHash(password), false);
	if (!user || !valid) {
		await rateLimit.increment(db, limits.signInAddress, address);
		throw new InvalidCredentialsError();
	}
	await rateLimit.clear(db, accountSlowDown, account);
	return toSessionUser(user);
}

export async function adminExists(db: DbOrTx): Promise<boolean> {
	const [row] = await db.select({ n: count() }).from(users).where(eq(users.isAdmin, true));
	return (row?.n ?? 0) > 0;
}

export async function countUsers(db: DbOrTx): Promise<number> {
	const [row] = await db.select({ n: count() }).from(users);
	return row?.n ?? 0;
}

export class AdminAlreadyExistsError extends ConflictError {
	constructor() {
		super('L’administrateur est déjà configuré.');
	}
}

/**
 * Creates the first administrator, only while none exists. A transaction-scoped advisory lock serialises
 * concurrent setups, so that of 20 simultaneous requests exactly one creates an admin and the others see it.
 */
export async function setupFirstAdmin(db: Db, input: RegisterInput, address: string): Promise<SessionUser> {
	await rateLimit.hit(db, limits.setupAddress, address);
	if (await adminExists(db)) throw new AdminAlreadyExistsError();
	assertPasswordPolicy(input.password);
	const passwordHash = await hashPassword(input.password);
	return db.transaction(async (tx) => {
		await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_SETUP_LOCK})`);
		if (await adminExists(tx)) throw new AdminAlreadyExistsError();
		const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
		if (existing) throw emailTaken();
		const [user] = await tx
			.insert(users)
			.values({ email: input.email.toLowerCase(), name: input.name, passwordHash, isAdmin: true })
			.returning();
		return toSessionUser(user!);
	});
}

export async function updateName(db: DbOrTx, userId: string, name: string): Promise<void> {
	await db.update(users).set({ name }).where(eq(users.id, userId));
}

/**
 * Changes the password after checking the current one, then signs the user out of every other session: whoever
 * else held one (a stolen session, a shared computer) loses it. Checking the current password goes through the same
 * slow-down as sign-in: a stolen session must not become a faster way to guess it.
 */
export async function changePassword(
	db: Db,
	{
		userId,
		sessionId,
		currentPassword,
		newPassword
	}: { userId: string; sessionId: string; currentPassword: string; newPassword: string }
): Promise<void> {
	const [user] = await db.select().from(users).where(eq(users.id, userId));
	if (!user) throw new InvalidCredentialsError();
	await rateLimit.reserve(db, accountSlowDown, user.email);
	if (!(await verifyPassword(user.passwordHash, currentPassword))) {
		throw new ValidationError({ currentPassword: ['Le mot de passe actuel est incorrect.'] });
	}
	await rateLimit.clear(db, accountSlowDown, user.email);
	assertPasswordPolicy(newPassword, 'newPassword');
	const passwordHash = await hashPassword(newPassword);
	await db.transaction(async (tx) => {
		await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
		await invalidateOtherSessions(tx, userId, sessionId);
	});
}
