/**
 * The session cookie's name, and whether a request carries it. Dependency-free: the page cache's fast path in
 * the server entry (a separate esbuild bundle that must not pull in the database) needs it as much as the app.
 */

/** `__Host-` with Secure behind https: the browser then refuses the cookie from any other host or path. */
export function sessionCookieName(origin: URL): string {
	return origin.protocol === 'https:' ? '__Host-session' : 'session';
}

/** Whether a raw `Cookie` header holds the session cookie (whatever its value: the fast path does not validate). */
export function hasSessionCookie(cookieHeader: string | undefined, origin: URL): boolean {
	if (!cookieHeader) return false;
	const prefix = `${sessionCookieName(origin)}=`;
	return cookieHeader.split(';').some((pair) => pair.trimStart().startsWith(prefix));
}
