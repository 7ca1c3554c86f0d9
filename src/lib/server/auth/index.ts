/** The accounts and access domain: its whole public surface. */
export {
	register,
	signIn,
	setupFirstAdmin,
	adminExists,
	countUsers,
	updateName,
	changePassword,
	limits,
	accountSlowDown,
	InvalidCredentialsError,
	AdminAlreadyExistsError
} from './accounts';
export { requireUser, requireAdmin, decide, loginUrl, type Decision } from './guards';
export { afterSignIn, homeFor, safeRedirectTarget } from './redirects';
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
