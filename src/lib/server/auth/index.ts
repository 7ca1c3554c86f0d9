/**
 * The accounts and access domain: its whole public surface, bound to the application's services (app.ts).
 * Tests call service.ts and session.ts with their own database. The SvelteKit side — guards and the session
 * cookie — is in src/lib/server/http/ (guards.ts, session-cookie.ts).
 */
import type { RegisterInput } from '$lib/schemas/auth';
import { company } from '$content/agency/company';
import { appDeps } from '../app';
import type { Actor } from '../audit/service';
import { issueDeviceToken } from './device';
import { afterSignIn as afterSignInAt } from './redirects';
import * as service from './service';
import * as administration from './administration';
import * as reauthentication from './reauthentication';
import * as session from './session';
import * as signInRules from './sign-in';
import type { SessionUser, SignInOrigin } from './session';
import * as twoFactor from './two-factor';
import { securityNotices } from '../mail';
import { circumstancesOf, notify } from './notices';

export const register = (input: RegisterInput, address: string) =>
	service.register(appDeps().db, input, address);
/**
 * Signs in, letting a browser that signed in to this account before spend its own budget instead of the
 * strangers' lane (device.ts, abuse/attempts.ts); returns the user and this browser's new device token.
 */
export async function signIn(email: string, password: string, address: string, deviceToken?: string) {
	const { db, config } = appDeps();
	const secret = config.signingSecret;
	const { user } = await signInRules.signIn(db, email, password, address, { secret, token: deviceToken });
	return { user, deviceToken: issueDeviceToken(secret, user.email) };
}
/** Whether a sign-in of this account asks for a code after the password. */
export const hasSecondFactor = (userId: string) => twoFactor.hasSecondFactor(appDeps().db, userId);
/** The cookie's token between the password and the code (pending-sign-in.ts). */
export const beginSecondFactor = (userId: string) => signInRules.beginSecondFactor(appDeps().db, userId);
export const pendingSignInUser = (token: string | undefined) =>
	signInRules.pendingSignInUser(appDeps().db, token);
/**
 * The code after the password: the user to open a session for, what the code was (a recovery code says how many
 * are left), and this browser's new device token. A recovery code's use is e-mailed to the owner.
 */
export async function completeSignIn(
	pendingToken: string,
	code: string,
	deviceToken: string | undefined,
	origin: SignInOrigin
) {
	const { db, config, mail } = appDeps();
	const done = await signInRules.completeSignIn(db, config.signingSecret, pendingToken, code, deviceToken);
	if (done.code.method === 'recovery') {
		const left = done.code.recoveryCodesLeft;
		const notice = securityNotices.recoveryCodeUsed(done.user.name, left, circumstancesOf(origin));
		notify(mail, done.user, 'recovery-code-used', notice);
	}
	return { ...done, deviceToken: issueDeviceToken(config.signingSecret, done.user.email) };
}
/**
 * « Recevoir un lien pour ce navigateur »: e-mails the owner a single-use link when the account exists and none
 * went in the last five minutes. Resolves the same either way (the page answers the same).
 */
export async function sendDeviceLink(email: string, address: string, origin: SignInOrigin) {
	const { db, config, mail } = appDeps();
	const issued = await signInRules.issueDeviceLink(db, email, address, config.origin);
	if (!issued) return;
	const letter = securityNotices.deviceLink(issued.user.name, issued.link, circumstancesOf(origin));
	notify(mail, issued.user, 'device-link', letter);
}
/** A device link followed: the account, and the device token that makes this browser a known one. */
export async function useDeviceLink(token: string) {
	const { db, config } = appDeps();
	const user = await signInRules.spendDeviceLink(db, token);
	return user && { user, deviceToken: issueDeviceToken(config.signingSecret, user.email) };
}
export const twoFactorState = (userId: string) => twoFactor.twoFactorState(appDeps().db, userId);
export const startTwoFactor = (user: { id: string; email: string }) => {
	const { db, config } = appDeps();
	return twoFactor.startEnrolment(db, config.signingSecret, user, TOTP_ISSUER);
};
export const pendingTwoFactor = (user: { id: string; email: string }) => {
	const { db, config } = appDeps();
	return twoFactor.pendingEnrolment(db, config.signingSecret, user, TOTP_ISSUER);
};
/** Where a signed-in user's change came from: the e-mails that tell them about it name the device. */
export interface ChangeOrigin {
	sessionId: string;
	userAgent: string | null;
	address: string;
}

export async function confirmTwoFactor(user: SessionUser, origin: ChangeOrigin, code: string) {
	const { db, config, mail } = appDeps();
	const lane = twoFactor.codeLanes.session(origin.sessionId);
	const codes = await twoFactor.confirmEnrolment(db, config.signingSecret, user.id, code, lane);
	notify(
		mail,
		user,
		'second-factor-enabled',
		securityNotices.secondFactorEnabled(user.name, circumstancesOf(origin))
	);
	return codes;
}
export async function disableTwoFactor(user: SessionUser, origin: ChangeOrigin, code: string) {
	const { db, config, mail } = appDeps();
	await twoFactor.disableOwn(db, config.signingSecret, user, origin.sessionId, code);
	const notice = securityNotices.secondFactorDisabled(user.name, 'owner', circumstancesOf(origin));
	notify(mail, user, 'second-factor-disabled', notice);
}
/** « Générer de nouveaux codes »: a code (or a recovery code) proves it is the owner; the old codes are void. */
export async function regenerateRecoveryCodes(user: SessionUser, origin: ChangeOrigin, code: string) {
	const { db, config, mail } = appDeps();
	const codes = await twoFactor.renewRecoveryCodes(
		db,
		config.signingSecret,
		user,
		twoFactor.codeLanes.session(origin.sessionId),
		code
	);
	notify(
		mail,
		user,
		'recovery-codes-renewed',
		securityNotices.recoveryCodesRenewed(user.name, circumstancesOf(origin))
	);
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
	const { db, mail } = appDeps();
	const changed = await administration.setAdminRole(db, targetId, isAdmin, admin);
	if (changed) {
		const target = await service.accountById(db, targetId);
		const notice = securityNotices.adminRightsChanged(
			target.name,
			isAdmin,
			admin.email,
			circumstancesOf(origin)
		);
		notify(mail, target, isAdmin ? 'admin-granted' : 'admin-revoked', notice);
	}
	return changed;
}
export async function removeSecondFactorOf(targetId: string, admin: Actor, origin: SignInOrigin) {
	const { db, mail } = appDeps();
	const removed = await administration.removeSecondFactorOf(db, targetId, admin);
	if (removed) {
		const target = await service.accountById(db, targetId);
		const notice = securityNotices.secondFactorDisabled(target.name, 'admin', circumstancesOf(origin));
		notify(mail, target, 'second-factor-removed', notice);
	}
	return removed;
}
/** Whether this session proved its user again in the last ten minutes. */
export const isRecentlyReauthenticated = reauthentication.isRecentlyReauthenticated;
export const reauthenticationMethod = (userId: string) =>
	reauthentication.reauthenticationMethod(appDeps().db, userId);
export const reauthenticate = (sessionId: string, user: Actor & { id: string }, secret: string) => {
	const { db, config } = appDeps();
	return reauthentication.reauthenticate(
		db,
		config.signingSecret,
		{ id: sessionId, userId: user.id },
		user,
		secret
	);
};

export const setupFirstAdmin = (input: RegisterInput, address: string) =>
	service.setupFirstAdmin(appDeps().db, input, address);
export const adminState = () => service.adminState(appDeps().db);
export const countUsers = () => service.countUsers(appDeps().db);
export const accountById = (id: string) => service.accountById(appDeps().db, id);
export const updateName = (userId: string, name: string) => service.updateName(appDeps().db, userId, name);
export async function changePassword(
	change: { userId: string; currentPassword: string; newPassword: string },
	origin: ChangeOrigin
) {
	const { db, mail } = appDeps();
	const user = await service.changePassword(db, { ...change, sessionId: origin.sessionId });
	notify(
		mail,
		user,
		'password-changed',
		securityNotices.passwordChanged(user.name, 'profile', circumstancesOf(origin))
	);
}
export const validateSession = (token: string) => session.validateSessionToken(appDeps().db, token);
export const purgeExpiredSessions = () => session.purgeExpiredSessions(appDeps().db);

/** A new session for the user: its token (for the cookie, never stored) and its row. */
export async function openSession(userId: string, origin: session.SignInOrigin = {}) {
	const token = session.generateSessionToken();
	return { token, session: await session.createSession(appDeps().db, token, userId, new Date(), origin) };
}
/** The user's open sessions (device, network, last seen), for /profil. */
export const sessionsOf = (userId: string, currentSessionId: string | null) =>
	session.sessionsOf(appDeps().db, userId, currentSessionId);
export const endSession = (userId: string, handle: string) =>
	session.endSessionByHandle(appDeps().db, userId, handle);
export const endOtherSessions = (userId: string, currentSessionId: string) =>
	session.invalidateOtherSessions(appDeps().db, userId, currentSessionId);
export const passwordLinkState = (token: string) => service.passwordLinkState(appDeps().db, token);
/** A reset or welcome link: the password is set, everything the old one opened is ended, the owner is told. */
export async function setPasswordWithLink(token: string, password: string, origin: SignInOrigin) {
	const { db, mail } = appDeps();
	const user = await service.setPasswordWithLink(db, token, password);
	notify(
		mail,
		user,
		'password-reset-done',
		securityNotices.passwordChanged(user.name, 'link', circumstancesOf(origin))
	);
	return user;
}
export const sendPasswordReset = (email: string, address: string) => {
	const { db, mail, config } = appDeps();
	return service.sendPasswordReset({ db, mail, origin: config.origin }, email, address);
};
export const requestEmailChange = (
	change: { userId: string; newEmail: string; password: string },
	origin: ChangeOrigin
) => {
	const { db, mail, config } = appDeps();
	return service.requestEmailChange(
		{ db, mail, origin: config.origin },
		{ ...change, sessionId: origin.sessionId }
	);
};
export const emailChangeState = (token: string, userId: string) =>
	service.emailChangeState(appDeps().db, token, userId);
export const confirmEmailChange = (token: string, userId: string, origin: SignInOrigin) => {
	const { db, mail } = appDeps();
	return service.confirmEmailChange({ db, mail }, token, userId, circumstancesOf(origin));
};
export const listUsers = (filters: { search?: string; role?: 'admin' | 'member' }, page: number) =>
	service.listUsers(appDeps().db, filters, page);
export const closeSession = (sessionId: string) => session.invalidateSession(appDeps().db, sessionId);

/** Where to go after signing in: a safe `redirectTo` on this site (resolved against ORIGIN), else home. */
export const afterSignIn = (user: { isAdmin: boolean }, redirectTo: string | null | undefined) =>
	afterSignInAt(user, redirectTo, appDeps().config.origin);

/** The name an authenticator app shows beside the account. */
const TOTP_ISSUER = company.brand;

export { homeFor } from './redirects';
export { sessionHandleOf } from './session';
export { deviceCookieName, DEVICE_COOKIE_LIFETIME_MS } from './device';
export { PENDING_SIGN_IN_LIFETIME_MS } from './pending-sign-in';
export { PendingSignInEndedError, DEVICE_LINK_LIFETIME_MS } from './sign-in';
export type { TwoFactorState } from './two-factor';
export { PasswordLinkError } from './service';
export type { SessionUser, ActiveSession, SessionView } from './session';
