/** Where to send someone after sign-in, and which `redirectTo` values may be trusted. */

export function homeFor(user: { isAdmin: boolean }): string {
	return user.isAdmin ? '/admin' : '/dashboard';
}

/**
 * Returns `target` when it is a path on this site, else null. Refuses protocol-relative (`//host`), backslash
 * tricks (`/\host`, which browsers read as `//host`), absolute URLs (`https:`, `javascript:`), and control
 * characters.
 */
export function safeRedirectTarget(target: string | null | undefined): string | null {
	if (!target || target.length > 2048) return null;
	if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
	// eslint-disable-next-line no-control-regex -- refusing control characters is the point
	if (/[\u0000-\u001f\u007f\\]/.test(target)) return null;
	const base = new URL('http://atelier.invalid');
	let url: URL;
	try {
		url = new URL(target, base);
	} catch {
		return null;
	}
	if (url.origin !== base.origin) return null;
	return url.pathname + url.search + url.hash;
}

export function afterSignIn(user: { isAdmin: boolean }, redirectTo: string | null | undefined): string {
	return safeRedirectTarget(redirectTo) ?? homeFor(user);
}
