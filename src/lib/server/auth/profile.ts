/**
 * What a signed-in person changes of their own account (issue "Accounts"; "Trust, part 2"): the name, the password,
 * the e-mail address (confirmed from the new one), and the password typed again before a deletion. The current
 * password is checked by `verifyCurrentPassword` (sign-in.ts), in the session's own budget.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '../db';
import { isUniqueViolation } from '../db/violations';
import { AppError, ConflictError, ValidationError } from '../errors';
import { inBackground } from '../lifecycle';
import { emailChanged, emailChangeConfirmation, sendWith, type Circumstances, type MailDeps } from '../mail';
import { PasswordLinkError } from './password-links';
import { assertPasswordPolicy, hashPassword } from './password';
import * as queries from './queries';
import { tokenHash } from './tokens';
import { invalidateOtherSessions, type SessionUser } from './session';
import { InvalidCredentialsError, verifyCurrentPassword } from './sign-in';

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
		await queries.voidUnspentDeviceLinks(tx, userId);
	});
	return user;
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
			// Known browsers are bound to the old address already (device.ts); the links sent to it are voided.
			await queries.voidUnspentDeviceLinks(tx, spent.userId);
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
