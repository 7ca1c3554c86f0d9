/** Where to send someone after sign-in, and which `redirectTo` values may be trusted. */

export function homeFor(user: { isAdmin: boolean }): string {
	return user.isAdmin ? '/admin' : '/dashboard';
}

const MAX_TARGET_LENGTH = 2048;

/**
 * Returns `target` as a path on this site (path, query and fragment), or null. The target is first resolved
 * against our origin as a browser would — dot-segments, percent-encoded dots, absolute URLs — and refused unless
 * the result has our origin; the path is then normalised so that no form of it can be read as another host:
 * repeated slashes are collapsed (`/a/..//evil.example` resolves to the path `//evil.example`, which a Location
 * header would send to evil.example), and raw backslashes and control characters (tabs and newlines, which
 * browsers strip from URLs) are refused outright.
 */
export function safeRedirectTarget(target: string | null | undefined, origin: URL): string | null {
	if (!target || target.length > MAX_TARGET_LENGTH) return null;
	// eslint-disable-next-line no-control-regex -- refusing control characters is the point
	if (/[\u0000-\u001f\u007f\\]/.test(target)) return null;
	let url: URL;
	try {
		url = new URL(target, origin);
	} catch {
		return null;
	}
	if (url.origin !== origin.origin || url.username || url.password) return null;
	const path = url.pathname.replace(/\/{2,}/g, '/');
	const result = path + url.search + url.hash;
	// What the browser will do with it: stay here.
	if (!result.startsWith('/') || result.startsWith('//')) return null;
	return new URL(result, origin).origin === origin.origin ? result : null;
}

export function afterSignIn(
	user: { isAdmin: boolean },
	redirectTo: string | null | undefined,
	origin: URL
): string {
	return safeRedirectTarget(redirectTo, origin) ?? homeFor(user);
}
