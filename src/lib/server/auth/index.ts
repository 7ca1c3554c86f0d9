/**
 * The accounts and access domain: its whole public surface, bound to the application's services (app.ts).
 * Tests call service.ts and session.ts with their own database. The SvelteKit side — guards and the session
 * cookie — is in src/lib/server/http/ (guards.ts, session-cookie.ts).
 */
import type { RegisterInput } from '$lib/schemas/auth';
import { appDeps } from '../app';
import { issueDeviceToken } from './device';
import { afterSignIn as afterSignInAt } from './redirects';
import * as service from './service';
import * as session from './session';

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

export { homeFor } from './redirects';
export { sessionHandleOf } from './session';
export { deviceCookieName, DEVICE_COOKIE_LIFETIME_MS } from './device';
export { PasswordLinkError } from './service';
export type { SessionUser, ActiveSession, SessionView } from './session';
