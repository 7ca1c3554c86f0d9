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
import * as pending from './pending-sign-in';
import * as reauthentication from './reauthentication';
import * as session from './session';
import type { SessionUser } from './session';
import * as twoFactor from './two-factor';

export const register = (input: RegisterInput, address: string) =>
	service.register(appDeps().db, input, address);
/**
 * Signs in, letting a browser that signed in to this account before skip the strangers' slow-down (device.ts);
 * returns the user and this browser's new device token for the account.
 */
export async function signIn(email: string, password: string, address: string, deviceToken?: string) {
	const { db, config } = appDeps();
	const secret = config.signingSecret;
	const user = await service.signIn(db, email, password, address, { secret, token: deviceToken });
	return { user, deviceToken: issueDeviceToken(secret, user.email) };
}
/** Whether a sign-in of this account asks for a code after the password. */
export const hasSecondFactor = (userId: string) => twoFactor.hasSecondFactor(appDeps().db, userId);
/** The cookie's token between the password and the code (pending-sign-in.ts). */
export const issuePendingSignIn = (userId: string) =>
	pending.issuePendingSignIn(appDeps().config.signingSecret, userId);
export const pendingUserOf = (token: string | undefined) =>
	pending.pendingUserOf(appDeps().config.signingSecret, token);
/** The code after the password: the user to open a session for, and this browser's new device token. */
export async function completeSignIn(userId: string, code: string) {
	const { db, config } = appDeps();
	await twoFactor.verifySecondFactor(db, config.signingSecret, userId, code);
	const user = await service.userForSession(db, userId);
	return { user, deviceToken: issueDeviceToken(config.signingSecret, user.email) };
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
export const confirmTwoFactor = (userId: string, code: string) => {
	const { db, config } = appDeps();
	return twoFactor.confirmEnrolment(db, config.signingSecret, userId, code);
};
export const disableTwoFactor = (userId: string, code: string) => {
	const { db, config } = appDeps();
	return twoFactor.disableOwn(db, config.signingSecret, userId, code);
};
/** Whether this admin must enrol before using the admin (ADMIN_2FA=required). */
export const mustEnrol = (user: SessionUser) =>
	user.isAdmin && !user.twoFactor && appDeps().config.admin2fa === 'required';

/** The users list's actions on another account (administration.ts); the route asks for a recent re-authentication. */
export const setAdminRole = (targetId: string, isAdmin: boolean, admin: Actor) =>
	administration.setAdminRole(appDeps().db, targetId, isAdmin, admin);
export const removeSecondFactorOf = (targetId: string, admin: Actor) =>
	administration.removeSecondFactorOf(appDeps().db, targetId, admin);
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
export const updateName = (userId: string, name: string) => service.updateName(appDeps().db, userId, name);
export const changePassword = (change: Parameters<typeof service.changePassword>[1]) =>
	service.changePassword(appDeps().db, change);
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
export const setPasswordWithLink = (token: string, password: string) =>
	service.setPasswordWithLink(appDeps().db, token, password);
export const sendPasswordReset = (email: string, address: string) => {
	const { db, mail, config } = appDeps();
	return service.sendPasswordReset({ db, mail, origin: config.origin }, email, address);
};
export const requestEmailChange = (change: { userId: string; newEmail: string; password: string }) => {
	const { db, mail, config } = appDeps();
	return service.requestEmailChange({ db, mail, origin: config.origin }, change);
};
export const emailChangeState = (token: string, userId: string) =>
	service.emailChangeState(appDeps().db, token, userId);
export const confirmEmailChange = (token: string, userId: string) => {
	const { db, mail } = appDeps();
	return service.confirmEmailChange({ db, mail }, token, userId);
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
export type { TwoFactorState } from './two-factor';
export { PasswordLinkError } from './service';
export type { SessionUser, ActiveSession, SessionView } from './session';
