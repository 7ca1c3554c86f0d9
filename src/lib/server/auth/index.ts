/**
 * The accounts and access domain: its whole public surface, bound to the application's services (app.ts).
 * Tests call accounts.ts and session.ts with their own database.
 */
import type { RegisterInput } from '$lib/schemas/auth';
import { appDeps } from '../app';
import * as accounts from './accounts';
import { afterSignIn as afterSignInAt } from './redirects';
import * as session from './session';

export const register = (input: RegisterInput, address: string) =>
	accounts.register(appDeps().db, input, address);
export const signIn = (email: string, password: string, address: string) =>
	accounts.signIn(appDeps().db, email, password, address);
export const setupFirstAdmin = (input: RegisterInput, address: string) =>
	accounts.setupFirstAdmin(appDeps().db, input, address);
export const adminState = () => accounts.adminState(appDeps().db);
export const countUsers = () => accounts.countUsers(appDeps().db);
export const updateName = (userId: string, name: string) => accounts.updateName(appDeps().db, userId, name);
export const changePassword = (change: Parameters<typeof accounts.changePassword>[1]) =>
	accounts.changePassword(appDeps().db, change);
export const validateSession = (token: string) => session.validateSessionToken(appDeps().db, token);
export const purgeExpiredSessions = () => session.purgeExpiredSessions(appDeps().db);

export { limits, signInSlowDown, InvalidCredentialsError, AdminAlreadyExistsError } from './accounts';
export { requireUser, requireAdmin, decide, loginUrl, type Decision } from './guards';
export { homeFor } from './redirects';

/** Where to go after signing in: a safe `redirectTo` on this site (resolved against ORIGIN), else home. */
export const afterSignIn = (user: { isAdmin: boolean }, redirectTo: string | null | undefined) =>
	afterSignInAt(user, redirectTo, appDeps().config.origin);
export { hashPassword, verifyPassword, passwordProblems, isCommonPassword } from './password';
export {
	generateSessionToken,
	createSession,
	invalidateSession,
	invalidateOtherSessions,
	setSessionCookie,
	deleteSessionCookie,
	sessionCookieName,
	sessionIdOf,
	SESSION_LIFETIME_MS,
	type SessionUser,
	type ActiveSession
} from './session';
export { signInAndSetCookie, signOut } from './cookies';
