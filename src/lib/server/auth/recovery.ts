/**
 * Accounts made or reopened without e-mail or a form: the member a payment creates, the single-use password links,
 * and the recovery of an administrator (`npm run admin`). Nothing here sends mail, so the admin command bundles it
 * without the e-mail templates.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '../db';
import { NotFoundError } from '../errors';
import { hashPassword } from './password';
import { CLI_ACTOR, recordAudit } from '../audit';
import * as queries from './queries';
import { toSessionUser, type SessionUser } from './session';
import { tokenHash } from './tokens';

/** A welcome link lasts 7 days (SEED / issue "Training programme, part 2"); a reset link 2 hours. */
export const PASSWORD_LINK_LIFETIME_MS = {
	welcome: 7 * 24 * 60 * 60 * 1000,
	reset: 2 * 60 * 60 * 1000
} as const;

/** A single-use link to `/mot-de-passe/{token}`: the token is returned for the e-mail, only its hash is stored. */
export async function issuePasswordLink(
	db: DbOrTx,
	userId: string,
	purpose: 'welcome' | 'reset',
	origin: URL,
	now = Date.now()
): Promise<string> {
	const token = randomBytes(32).toString('base64url');
	await queries.insertPasswordToken(db, {
		hash: tokenHash(token),
		userId,
		purpose,
		expiresAt: new Date(now + PASSWORD_LINK_LIFETIME_MS[purpose])
	});
	return new URL(`/mot-de-passe/${token}`, origin).href;
}

/**
 * Recovery without e-mail (`npm run admin -- create <email>`, docs/operations.md): the account with this e-mail
 * becomes an administrator, created first with a password nobody knows when it does not exist. The answer is a
 * single-use link to set the password: a password never goes through the shell or its history.
 */
export async function recoverAdmin(
	db: Db,
	email: string,
	origin: URL
): Promise<{ created: boolean; promoted: boolean; link: string }> {
	return db.transaction(async (tx) => {
		const existing = await queries.userByEmail(tx, email.trim().toLowerCase());
		const { user, created } = await findOrCreateMember(tx, email, email.trim().split('@')[0] || 'Admin');
		const promoted = !existing?.isAdmin;
		if (promoted) await queries.setUserAdmin(tx, user.id, true);
		const link = await issuePasswordLink(tx, user.id, created ? 'welcome' : 'reset', origin);
		// What happened, said apart: a new admin, an account made admin, or only a link for an existing admin.
		const kind = created
			? 'admin.created_by_cli'
			: promoted
				? 'admin.promoted_by_cli'
				: 'admin.password_link_by_cli';
		await recordAudit(tx, CLI_ACTOR, {
			kind,
			subjectType: 'user',
			subjectId: user.id,
			changes: { isAdmin: { before: existing?.isAdmin ?? null, after: true } }
		});
		return { created, promoted, link };
	});
}

/** `npm run admin -- reset-password <email>`: a single-use set-password link for an existing account. */
export async function passwordLinkFor(db: Db, email: string, origin: URL): Promise<string> {
	const user = await queries.userByEmail(db, email.trim().toLowerCase());
	if (!user) throw new NotFoundError(`Aucun compte pour ${email}.`);
	return db.transaction(async (tx) => {
		const link = await issuePasswordLink(tx, user.id, 'reset', origin);
		await recordAudit(tx, CLI_ACTOR, {
			kind: 'user.password_link_by_cli',
			subjectType: 'user',
			subjectId: user.id
		});
		return link;
	});
}

/**
 * The member account for a payment (issue "Training programme, part 2", point 4): the user with this e-mail, or a
 * new one whose password nobody knows (random, from `crypto.getRandomValues`, hashed like any other, never sent or
 * logged): the welcome e-mail's link sets a real one.
 */
export async function findOrCreateMember(
	db: DbOrTx,
	email: string,
	name: string
): Promise<{ user: SessionUser; created: boolean }> {
	const account = email.trim().toLowerCase();
	const existing = await queries.userByEmail(db, account);
	if (existing) return { user: toSessionUser(existing), created: false };
	const secret = new Uint8Array(32);
	crypto.getRandomValues(secret);
	const passwordHash = await hashPassword(Buffer.from(secret).toString('base64url'));
	const user = await queries.insertUser(db, { email: account, name, passwordHash });
	return { user: toSessionUser(user), created: true };
}

/** `npm run admin -- list`: every administrator, newest first. */
export const listAdmins = (db: DbOrTx) => queries.selectUsers(db, { role: 'admin' }, 1000, 0);
