/**
 * The accounts and access domain: its whole public surface, bound to the application's services (app.ts). One
 * file per concern — registration.ts (and the first admin), sign-in.ts, profile.ts, password-links.ts,
 * administration.ts, two-factor.ts, session.ts — which tests call with their own database. A session opens only
 * from a proof made here (proof.ts). The SvelteKit side — guards and the session cookie — is in
 * src/lib/server/http/ (guards.ts, session-cookie.ts).
 */
import type { RegisterInput } from '$lib/schemas/auth';
import { company } from '$lib/company';
import { appDeps } from '../app';
import type { Actor } from '../audit';
import { issueDeviceToken } from './device';
import { afterSignIn as afterSignInAt } from './redirects';
import * as administration from './administration';
import * as passwordLinks from './password-links';
import * as profile from './profile';
import { openSessionFrom, proofOf, type SignInProof } from './proof';
import * as registration from './registration';
import * as reauthentication from './reauthentication';
import * as session from './session';
import * as signInRules from './sign-in';
import type { SessionUser, SignInOrigin } from './session';
import * as twoFactor from './two-factor';
import { securityNotices } from '../mail';
import { circumstancesOf, notify, type ChangeOrigin } from './notices';
import type { Circumstances } from '../mail';

export type { ChangeOrigin };

/** Tells the account's owner what changed, with when and from which device, after the answer (notices.ts). */
const tell = (
	to: { name: string; email: string },
	template: string,
	origin: SignInOrigin | null,
	letter: (name: string, said: Circumstances) => Parameters<typeof notify>[3]
) => notify(appDeps().mail, to, template, letter(to.name, circumstancesOf(origin)));

/** A new account: the proof of its password (it has no second factor yet). */
export const register = async (input: RegisterInput, address: string) =>
	proofOf(await registration.register(appDeps().db, input, address), 'password');
/**
 * Signs in, letting a browser that signed in to this account before spend its own budget instead of the
 * strangers' lane (device.ts, abuse/attempts.ts); returns the proof of the password and this browser's new device
 * token.
 */
export async function signIn(email: string, password: string, address: string, deviceToken?: string) {
	const { db, config } = appDeps();
	const secret = config.signingSecret;
	const { user } = await signInRules.signIn(db, email, password, address, { secret, token: deviceToken });
	return { proof: proofOf(user, 'password'), deviceToken: issueDeviceToken(secret, user.email) };
}
export const pendingSignInUser = (token: string | undefined) =>
	signInRules.pendingSignInUser(appDeps().db, token);
/**
 * The code after the password: the proof that opens the session, what the code was (a recovery code says how many
 * are left), and this browser's new device token. A recovery code's use is e-mailed to the owner.
 */
export async function completeSignIn(
	pendingToken: string,
	code: string,
	deviceToken: string | undefined,
	origin: SignInOrigin
) {
	const { db, config } = appDeps();
	const done = await signInRules.completeSignIn(db, config.signingSecret, pendingToken, code, deviceToken);
	if (done.code.method === 'recovery') {
		const left = done.code.recoveryCodesLeft;
		tell(done.user, 'recovery-code-used', origin, (n, c) => securityNotices.recoveryCodeUsed(n, left, c));
	}
	return {
		proof: proofOf(done.user, 'second-factor'),
		code: done.code,
		deviceToken: issueDeviceToken(config.signingSecret, done.user.email)
	};
}
/**
 * « Recevoir un lien pour ce navigateur »: e-mails the owner a single-use link when the account exists and none
 * went in the last five minutes. Resolves the same either way (the page answers the same).
 */
export async function sendDeviceLink(email: string, address: string, origin: SignInOrigin) {
	const { db, config } = appDeps();
	const issued = await signInRules.issueDeviceLink(db, email, address, config.origin);
	if (!issued) return;
	tell(issued.user, 'device-link', origin, (n, c) => securityNotices.deviceLink(n, issued.link, c));
}
/** A device link followed: the account, and the device token that makes this browser a known one. */
export async function useDeviceLink(token: string) {
	const { db, config } = appDeps();
	const user = await signInRules.spendDeviceLink(db, token);
	return (
		user && { user, deviceToken: issueDeviceToken(config.signingSecret, user.email, Date.now(), 'link') }
	);
}
export const twoFactorState = (userId: string) => twoFactor.twoFactorState(appDeps().db, userId);
export const startTwoFactor = (user: { id: string; email: string }) => {
	const { db, config } = appDeps();
	return twoFactor.startEnrolment(db, config.signingSecret, user, totpIssuer());
};
export const pendingTwoFactor = (user: { id: string; email: string }) => {
	const { db, config } = appDeps();
	return twoFactor.pendingEnrolment(db, config.signingSecret, user, totpIssuer());
};

export async function confirmTwoFactor(user: SessionUser, origin: ChangeOrigin, code: string) {
	const { db, config } = appDeps();
	const lane = twoFactor.codeLanes.session(origin.sessionId);
	const codes = await twoFactor.confirmEnrolment(db, config.signingSecret, user.id, code, lane);
	tell(user, 'second-factor-enabled', origin, (n, c) => securityNotices.secondFactorEnabled(n, c));
	return codes;
}
export async function disableTwoFactor(user: SessionUser, origin: ChangeOrigin, code: string) {
	const { db, config } = appDeps();
	await twoFactor.disableOwn(db, config.signingSecret, user, origin.sessionId, code);
	tell(user, 'second-factor-disabled', origin, (n, c) => securityNotices.secondFactorDisabled(n, 'owner', c));
}
/** « Générer de nouveaux codes »: a code (or a recovery code) proves it is the owner; the old codes are void. */
export async function regenerateRecoveryCodes(user: SessionUser, origin: ChangeOrigin, code: string) {
	const { db, config } = appDeps();
	const codes = await twoFactor.renewRecoveryCodes(
		db,
		config.signingSecret,
		user,
		twoFactor.codeLanes.session(origin.sessionId),
		code
	);
	tell(user, 'recovery-codes-renewed', origin, (n, c) => securityNotices.recoveryCodesRenewed(n, c));
	return codes;
}
/** Whether this admin must enrol before using the admin (ADMIN_2FA=required). */
export const mustEnrol = (user: SessionUser) =>
	user.isAdmin && !user.twoFactor && appDeps().config.admin2fa === 'required';

/**
 * The users list's actions on another account (administration.ts); the route asks for a recent re-authentication.
 * The person is told by e-mail.
 */
export async function setAdminRole(targetId: string, isAdmin: boolean, admin: Actor, origin: SignInOrigin) {
	const { db } = appDeps();
	const changed = await administration.setAdminRole(db, targetId, isAdmin, admin);
	if (changed) {
		const target = await administration.accountById(db, targetId);
		tell(target, isAdmin ? 'admin-granted' : 'admin-revoked', origin, (n, c) =>
			securityNotices.adminRightsChanged(n, isAdmin, admin.email, c)
		);
	}
	return changed;
}
export async function removeSecondFactorOf(targetId: string, admin: Actor, origin: SignInOrigin) {
	const { db } = appDeps();
	const removed = await administration.removeSecondFactorOf(db, targetId, admin);
	if (removed) {
		const target = await administration.accountById(db, targetId);
		tell(target, 'second-factor-removed', origin, (n, c) =>
			securityNotices.secondFactorDisabled(n, 'admin', c)
		);
	}
	return removed;
}
/** Whether this session proved its user again in the last ten minutes. */
export const isRecentlyReauthenticated = reauthentication.isRecentlyReauthenticated;
export const reauthenticationMethod = (userId: string) =>
	reauthentication.reauthenticationMethod(appDeps().db, userId);
export const reauthenticate = (sessionId: string, user: Actor & { id: string }, secret: string) => {
	const { db, config } = appDeps();
	const session = { id: sessionId, userId: user.id };
	return reauthentication.reauthenticate(db, config.signingSecret, session, user, secret);
};

/** The first administrator, while none exists: the proof of its password. */
export const setupFirstAdmin = async (input: RegisterInput, address: string) =>
	proofOf(await registration.setupFirstAdmin(appDeps().db, input, address), 'password');
export const adminState = () => registration.adminState(appDeps().db);
export const adminsWithoutSecondFactor = () => administration.adminsWithoutSecondFactor(appDeps().db);
export const accountById = (id: string) => administration.accountById(appDeps().db, id);
export const updateName = (userId: string, name: string) => profile.updateName(appDeps().db, userId, name);
export async function changePassword(
	change: { userId: string; currentPassword: string; newPassword: string },
	origin: ChangeOrigin
) {
	const { db } = appDeps();
	const user = await profile.changePassword(db, { ...change, sessionId: origin.sessionId });
	tell(user, 'password-changed', origin, (n, c) => securityNotices.passwordChanged(n, 'profile', c));
}
export const validateSession = (token: string) => session.validateSessionToken(appDeps().db, token);
export const purgeExpiredSessions = () => session.purgeExpiredSessions(appDeps().db);

/** Where a proof leads: a new session, or the code step for an account with a second factor (proof.ts). */
export const openSession = (proof: SignInProof, origin: SignInOrigin = {}) =>
	openSessionFrom(appDeps().db, proof, origin);
/** The user's open sessions (device, network, last seen), for /profil. */
export const sessionsOf = (userId: string, currentSessionId: string | null) =>
	session.sessionsOf(appDeps().db, userId, currentSessionId);
export const endSession = (userId: string, handle: string) =>
	session.endSessionByHandle(appDeps().db, userId, handle);
export const endOtherSessions = (userId: string, currentSessionId: string) =>
	session.invalidateOtherSessions(appDeps().db, userId, currentSessionId);
export const passwordLinkState = (token: string) => passwordLinks.passwordLinkState(appDeps().db, token);
/**
 * A reset or welcome link: the password is set, everything the old one opened is ended, the owner is told. The
 * proof it returns is of a link: the account's second factor still follows.
 */
export async function setPasswordWithLink(token: string, password: string, origin: SignInOrigin) {
	const { db } = appDeps();
	const user = await passwordLinks.setPasswordWithLink(db, token, password);
	tell(user, 'password-reset-done', origin, (n, c) => securityNotices.passwordChanged(n, 'link', c));
	return proofOf(user, 'link');
}
export const sendPasswordReset = (email: string, address: string) => {
	const { db, mail, config } = appDeps();
	return passwordLinks.sendPasswordReset({ db, mail, origin: config.origin }, email, address);
};
export const requestEmailChange = (
	change: { userId: string; newEmail: string; password: string },
	origin: ChangeOrigin
) => {
	const { db, mail, config } = appDeps();
	return profile.requestEmailChange(
		{ db, mail, origin: config.origin },
		{ ...change, sessionId: origin.sessionId }
	);
};
export const emailChangeState = (token: string, userId: string) =>
	profile.emailChangeState(appDeps().db, token, userId);
export const confirmEmailChange = (token: string, userId: string, origin: SignInOrigin) => {
	const { db, mail } = appDeps();
	return profile.confirmEmailChange({ db, mail }, token, userId, circumstancesOf(origin));
};
export const listUsers = (filters: { search?: string; role?: 'admin' | 'member' }, page: number) =>
	administration.listUsers(appDeps().db, filters, page);
export const closeSession = (sessionId: string) => session.invalidateSession(appDeps().db, sessionId);

/** Where to go after signing in: a safe `redirectTo` on this site (resolved against ORIGIN), else home. */
export const afterSignIn = (user: { isAdmin: boolean }, redirectTo: string | null | undefined) =>
	afterSignInAt(user, redirectTo, appDeps().config.origin);

/** The name an authenticator app shows beside the account: the company's brand of the moment. */
const totpIssuer = () => company.brand;

export { homeFor } from './redirects';
export { sessionHandleOf } from './session';
export { deviceCookieName, DEVICE_COOKIE_LIFETIME_MS } from './device';
export { PENDING_SIGN_IN_LIFETIME_MS } from './pending-sign-in';
export { PendingSignInEndedError, DEVICE_LINK_LIFETIME_MS } from './sign-in';
export type { TwoFactorState } from './two-factor';
export { PasswordLinkError } from './password-links';
export type { SignInProof } from './proof';
export type { SessionUser, ActiveSession, SessionView } from './session';

/**
 * The same rules on the caller's own database or transaction: for the other domains (a payment creates its member
 * inside the payment's transaction; a member's deletion checks and removes the account in its own) and for the
 * operators' commands, which run without the app's services.
 */
export { findOrCreateMember, issuePasswordLink, listAdmins, passwordLinkFor, recoverAdmin } from './recovery';
export { accountById as accountIn, assertDeletable, removeSecondFactorByCli } from './administration';
export { deleteUser, verifyOwnPassword } from './profile';
export { circumstancesOf, notify } from './notices';
/** Who may open a page: the one decision the guards of http/ apply. */
export { decide, type Decision } from './access';
