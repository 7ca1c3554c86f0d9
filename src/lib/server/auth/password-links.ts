/**
 * The single-use password links (issue "Accounts"; "Trust, part 2"): « Mot de passe oublié », and following a reset
 * or welcome link. A link sets the password and ends everything the old one opened; it never skips the account's
 * second factor (the session is opened through it: index.ts, http/session-cookie.ts). Issuing a link is in
 * recovery.ts, which the admin command bundles without the e-mail templates.
 */
import type { Db, DbOrTx } from '../db';
import { countRequest, type Limit } from '../abuse';
import { AppError } from '../errors';
import { inBackground } from '../lifecycle';
import { passwordReset, sendWith, type MailDeps } from '../mail';
import { assertPasswordPolicy, hashPassword } from './password';
import * as queries from './queries';
import { issuePasswordLink } from './recovery';
import { tokenHash } from './tokens';
import { toSessionUser, type SessionUser } from './session';

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
		await queries.voidUnspentDeviceLinks(tx, spent.userId);
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
