/** Registration, sign-in, first-admin setup, profile changes: the rules of SEED.md part 5 and issue "Accounts". */
import { countRequest, type Limit } from '../abuse/attempts';
import { randomBytes } from 'node:crypto';
import type { RegisterInput } from '$lib/schemas/auth';
import type { Db, DbOrTx } from '../db';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import { recordAudit } from '../audit/service';
import { hashPassword, passwordProblems } from './password';
import { inBackground } from '../lifecycle';
import {
	emailChanged,
	emailChangeConfirmation,
	passwordReset,
	sendWith,
	type Circumstances,
	type MailDeps
} from '../mail';
import { isUniqueViolation } from '../db/violations';
import * as queries from './queries';
import { issuePasswordLink, tokenHash, toSessionUser } from './recovery';
import { invalidateOtherSessions, type SessionUser } from './session';
import { InvalidCredentialsError, verifyCurrentPassword } from './sign-in';

export { InvalidCredentialsError };

const MINUTES_15 = 15 * 60;

export const limits = {
	registerAddress: { name: 'register-address', max: 20, windowSeconds: 60 * 60 },
	setupAddress: { name: 'setup-address', max: 10, windowSeconds: MINUTES_15 }
} satisfies Record<string, Limit>;

function assertPasswordPolicy(password: string, field = 'password') {
	const problems = passwordProblems(password);
	if (problems.length) throw new ValidationError({ [field]: problems });
}

const emailTaken = () => new ValidationError({ email: ['Un compte existe déjà avec cette adresse e-mail.'] });

export async function register(db: Db, input: RegisterInput, address: string): Promise<SessionUser> {
	await countRequest(db, limits.registerAddress, address);
	assertPasswordPolicy(input.password);
	const passwordHash = await hashPassword(input.password);
	try {
		const user = await queries.insertUser(db, {
			email: input.email.toLowerCase(),
			name: input.name,
			passwordHash
		});
		return toSessionUser(user);
	} catch (error) {
		if (isUniqueViolation(error)) throw emailTaken();
		throw error;
	}
}

/** The account with this id, as a session's user; NotFoundError when it is gone. */
export async function accountById(db: DbOrTx, id: string): Promise<SessionUser> {
	const user = await queries.userById(db, id);
	if (!user) throw new NotFoundError('Compte introuvable.');
	return toSessionUser(user);
}

export async function adminExists(db: DbOrTx): Promise<boolean> {
	return (await queries.countAdmins(db)) > 0;
}

/**
 * For pages that only show a hint about it (/login's "create the first admin", /setup-admin's "already done"):
 * `unknown` while the database cannot answer, so that the page still shows its form with what was typed — the
 * form's action then says the service is unavailable.
 */
export async function adminState(db: DbOrTx): Promise<'exists' | 'none' | 'unknown'> {
	try {
		return (await adminExists(db)) ? 'exists' : 'none';
	} catch (error) {
		if (isDatabaseUnavailable(error)) return 'unknown';
		throw error;
	}
}

export const countUsers = (db: DbOrTx): Promise<number> => queries.countUsers(db);

export const USERS_PAGE_SIZE = 50;

/** The admin's users list: one page (50) of the search, with the total and the page count. */
export async function listUsers(
	db: DbOrTx,
	filters: { search?: string; role?: queries.UserRole },
	page: number,
	pageSize = USERS_PAGE_SIZE
) {
	const total = await queries.countMatchingUsers(db, filters);
	const pages = Math.max(1, Math.ceil(total / pageSize));
	const current = Math.min(Math.max(1, page), pages);
	const rows = await queries.selectUsers(db, filters, pageSize, (current - 1) * pageSize);
	return { users: rows, total, page: current, pages, pageSize };
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
	await countRequest(db, limits.setupAddress, address);
	if (await adminExists(db)) throw new AdminAlreadyExistsError();
	assertPasswordPolicy(input.password);
	const passwordHash = await hashPassword(input.password);
	return db.transaction(async (tx) => {
		await queries.lockForTransaction(tx, queries.ADMIN_SETUP_LOCK);
		if (await adminExists(tx)) throw new AdminAlreadyExistsError();
		const email = input.email.toLowerCase();
		if (await queries.userByEmail(tx, email)) throw emailTaken();
		const user = await queries.insertUser(tx, { email, name: input.name, passwordHash, isAdmin: true });
		await recordAudit(tx, user, {
			kind: 'admin.first_created',
			subjectType: 'user',
			subjectId: user.id,
			changes: { isAdmin: { before: null, after: true } }
		});
		return toSessionUser(user);
	});
}

export const updateName = (db: DbOrTx, userId: string, name: string): Promise<void> =>
	queries.setUserName(db, userId, name);

/**
 * Changes the password after checking the current one (the session's own budget, abuse/attempts.ts), then signs
 * the user out of every other session and ends every sign-in begun with the old password: whoever else held one (a
 * stolen session, a shared computer) loses it. Returns the user, for the "password changed" e-mail.
 */
export async function changePassword(
	db: Db,
	{
		userId,
		sessionId,
		currentPassword,
		newPassword
	}: { userId: string; sessionId: string; currentPassword: string; newPassword: string }
): Promise<SessionUser> {
	const user = await verifyCurrentPassword(
		db,
		{ userId, sessionId },
		currentPassword,
		() => new ValidationError({ currentPassword: ['Le mot de passe actuel est incorrect.'] })
	);
	assertPasswordPolicy(newPassword, 'newPassword');
	const passwordHash = await hashPassword(newPassword);
	await db.transaction(async (tx) => {
		await queries.setPasswordHash(tx, userId, passwordHash);
		await invalidateOtherSessions(tx, userId, sessionId);
		await queries.deletePendingSignIns(tx, userId);
	});
	return user;
}

// ——— Password links: set a password (welcome) or reset it ———

export {
	findOrCreateMember,
	issuePasswordLink,
	passwordLinkFor,
	PASSWORD_LINK_LIFETIME_MS,
	recoverAdmin
} from './recovery';

export type PasswordLinkState = 'valid' | 'used' | 'expired' | 'unknown';

export async function passwordLinkState(
	db: DbOrTx,
	token: string,
	now = new Date()
): Promise<PasswordLinkState> {
	if (!/^[\w-]{43}$/.test(token)) return 'unknown';
	const row = await queries.passwordTokenByHash(db, tokenHash(token));
	if (!row) return 'unknown';
	if (row.usedAt) return 'used';
	return row.expiresAt <= now ? 'expired' : 'valid';
}

/** The link cannot set a password: used, expired or unknown — said apart so that the page can say which. */
export class PasswordLinkError extends AppError {
	constructor(readonly state: Exclude<PasswordLinkState, 'valid'>) {
		super(
			410,
			state === 'used'
				? 'Ce lien a déjà servi.'
				: state === 'expired'
					? 'Ce lien a expiré.'
					: 'Ce lien n’est pas valable.'
		);
	}
}

/**
 * Sets the password through a link (same rules as registration), spends the link, and ends everything the old
 * password opened: every session, every pending sign-in, every device cookie (whoever held one is a stranger
 * again). Returns the user, to sign them in afresh — through their second factor when they have one.
 */
export async function setPasswordWithLink(
	db: Db,
	token: string,
	newPassword: string,
	now = new Date()
): Promise<SessionUser> {
	assertPasswordPolicy(newPassword);
	const state = await passwordLinkState(db, token, now);
	if (state !== 'valid') throw new PasswordLinkError(state);
	const passwordHash = await hashPassword(newPassword);
	const user = await db.transaction(async (tx) => {
		const spent = await queries.spendPasswordToken(tx, tokenHash(token), now);
		// Spent by a simultaneous request in between.
		if (!spent) throw new PasswordLinkError('used');
		await queries.setPasswordHash(tx, spent.userId, passwordHash);
		await queries.deleteAllSessions(tx, spent.userId);
		await queries.deletePendingSignIns(tx, spent.userId);
		await queries.revokeDevices(tx, spent.userId, now);
		return queries.userById(tx, spent.userId);
	});
	return toSessionUser(user!);
}

export const resetLimits = {
	address: { name: 'reset-address', max: 10, windowSeconds: 60 * 60 },
	email: { name: 'reset-email', max: 3, windowSeconds: 60 * 60 }
} satisfies Record<string, Limit>;

/**
 * "Mot de passe oublié": the same answer whether the address has an account or not (the caller answers before
 * this resolves); rate limited per client address and per e-mail. Returns the link when there is an account, for
 * the caller to e-mail.
 */
export async function requestPasswordReset(
	db: Db,
	email: string,
	address: string,
	origin: URL
): Promise<{ user: SessionUser; link: string } | null> {
	const account = email.trim().toLowerCase();
	await countRequest(db, resetLimits.address, address);
	await countRequest(db, resetLimits.email, account);
	const user = await queries.userByEmail(db, account);
	if (!user) return null;
	return { user: toSessionUser(user), link: await issuePasswordLink(db, user.id, 'reset', origin) };
}

/** Account deletion (RGPD) and re-authentication: the session's user types their password (its own budget). */
export const verifyOwnPassword = (db: DbOrTx, who: { userId: string; sessionId: string }, password: string) =>
	verifyCurrentPassword(
		db,
		who,
		password,
		() => new ValidationError({ password: ['Mot de passe incorrect.'] })
	);

export const deleteUser = (db: DbOrTx, userId: string) => queries.deleteUser(db, userId);

/** `requestPasswordReset`, then the e-mail after the answer: the same answer and timing with or without an account. */
export async function sendPasswordReset(
	deps: { db: Db; mail: MailDeps; origin: URL },
	email: string,
	address: string
): Promise<void> {
	const found = await requestPasswordReset(deps.db, email, address, deps.origin);
	if (!found) return;
	inBackground(
		sendWith(deps.mail, {
			to: { name: found.user.name, address: found.user.email },
			template: 'password-reset',
			...passwordReset(found.user.name, found.link)
		})
	);
}

// ——— Changing the e-mail address: confirmed from the new address ———

export const EMAIL_CHANGE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Asks for a new address: the current password proves it is the owner (same slow-down as sign-in), the address
 * must be free, and a single-use link (24 h) is sent to the new address. The account keeps its address until
 * the link is followed. Returns the link (the tests follow it).
 */
export async function requestEmailChange(
	deps: { db: Db; mail: MailDeps; origin: URL },
	{
		userId,
		sessionId,
		newEmail,
		password
	}: { userId: string; sessionId: string; newEmail: string; password: string },
	now = Date.now()
): Promise<string> {
	const user = await queries.userById(deps.db, userId);
	if (!user) throw new InvalidCredentialsError();
	const email = newEmail.trim().toLowerCase();
	if (email === user.email)
		throw new ValidationError({ newEmail: ['C’est déjà l’adresse de votre compte.'] });
	await verifyCurrentPassword(
		deps.db,
		{ userId, sessionId },
		password,
		// Named after the profile form's field (the page has other password fields).
		() => new ValidationError({ emailPassword: ['Le mot de passe est incorrect.'] })
	);
	if (await queries.userByEmail(deps.db, email))
		throw new ValidationError({ newEmail: ['Cette adresse est déjà celle d’un autre compte.'] });
	const token = randomBytes(32).toString('base64url');
	await queries.insertEmailChange(deps.db, {
		hash: tokenHash(token),
		userId,
		newEmail: email,
		expiresAt: new Date(now + EMAIL_CHANGE_LIFETIME_MS)
	});
	const link = new URL(`/profil/adresse/${token}`, deps.origin).href;
	const sent = await sendWith(deps.mail, {
		to: { name: user.name, address: email },
		template: 'email-change',
		...emailChangeConfirmation(user.name, link)
	});
	if (!sent.sent)
		throw new AppError(503, 'L’e-mail de confirmation n’a pas pu partir. Réessayez dans quelques minutes.');
	return link;
}

export type EmailChangeState = 'valid' | 'used' | 'expired' | 'unknown';

/** What a link is worth to the signed-in user `userId`: someone else's link is as good as unknown. */
export async function emailChangeState(db: DbOrTx, token: string, userId: string, now = new Date()) {
	const unknown = { state: 'unknown' as EmailChangeState, newEmail: null };
	if (!/^[\w-]{43}$/.test(token)) return unknown;
	const row = await queries.emailChangeByHash(db, tokenHash(token));
	if (!row || row.userId !== userId) return unknown;
	const state: EmailChangeState = row.usedAt ? 'used' : row.expiresAt <= now ? 'expired' : 'valid';
	return { state, newEmail: row.newEmail };
}

/** The link was followed: the new address replaces the old, which is told so. One use; a taken address refused. */
export async function confirmEmailChange(
	deps: { db: Db; mail: MailDeps },
	token: string,
	userId: string,
	circumstances: Circumstances,
	now = new Date()
): Promise<{ userId: string; email: string }> {
	const { state } = await emailChangeState(deps.db, token, userId, now);
	if (state !== 'valid') throw new PasswordLinkError(state);
	const { user, newEmail } = await deps.db
		.transaction(async (tx) => {
			const spent = await queries.spendEmailChange(tx, tokenHash(token), now);
			if (!spent) throw new PasswordLinkError('used');
			const before = await queries.userById(tx, spent.userId);
			await queries.setUserEmail(tx, spent.userId, spent.newEmail);
			return { user: before!, newEmail: spent.newEmail };
		})
		.catch((error: unknown) => {
			if (isUniqueViolation(error))
				throw new ConflictError('Cette adresse est entre-temps devenue celle d’un autre compte.');
			throw error;
		});
	inBackground(
		sendWith(deps.mail, {
			to: { name: user.name, address: user.email },
			template: 'email-changed',
			...emailChanged(user.name, newEmail, circumstances)
		})
	);
	return { userId: user.id, email: newEmail };
}
