/** The accounts and access domain: its whole public surface. */
import { config } from '../config';
import { afterSignIn as afterSignInAt } from './redirects';

export {
	register,
	signIn,
	setupFirstAdmin,
	adminExists,
	countUsers,
	updateName,
	changePassword,
	limits,
	InvalidCredentialsError,
	AdminAlreadyExistsError
} from './accounts';
export { requireUser, requireAdmin, decide, loginUrl, type Decision } from './guards';
export { homeFor } from './redirects';

/** Where to go after signing in: a safe `redirectTo` on this site (resolved against ORIGIN), else home. */
export const afterSignIn = (user: { isAdmin: boolean }, redirectTo: string | null | undefined) =>
	afterSignInAt(user, redirectTo, config.origin);
export { hashPassword, verifyPassword, passwordProblems, isCommonPassword } from './password';
export {
	generateSessionToken,
	createSession,
	validateSessionToken,
	invalidateSession,
	invalidateOtherSessions,
	purgeExpiredSessions,
	setSessionCookie,
	deleteSessionCookie,
	sessionCookieName,
	sessionIdOf,
	SESSION_LIFETIME_MS,
	type SessionUser,
	type ActiveSession
} from './session';
export { signInAndSetCookie, signOut } from './cookies';
