/**
 * Where to send someone after sign-in, and which `redirectTo` values may be trusted. Every redirect whose target
 * comes from input goes through `safeRedirectTarget`: one function, so that one fix covers every caller.
 */
import { config } from '../config';

export function homeFor(user: { isAdmin: boolean }): string {
	return user.isAdmin ? '/admin' : '/dashboard';
}

/** Longer than any path of this site with its query; anything longer is someone trying something. */
const MAX_LENGTH = 2048;

/**
 * Characters that have no business in a redirect target: C0/C1 controls and DEL (browsers silently drop tab, CR
 * and LF inside URLs, which turns `/\t/evil` into `//evil`), every kind of space and invisible or bidi formatting
 * character, and the backslash (which browsers read as `/` in http URLs, so `/\evil` is `//evil`).
 */
const UNSAFE =
	// eslint-disable-next-line no-control-regex -- refusing control characters is the point
	/[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/;

/** How many layers of percent-encoding we peel before giving up: nobody legitimately encodes a path three times. */
const MAX_DECODE_ROUNDS = 3;

/** The path with every layer of percent-encoding removed, or null when it is malformed or too deeply encoded. */
function fullyDecoded(path: string): string | null {
	let current = path;
	for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
		let decoded: string;
		try {
			decoded = decodeURIComponent(current);
		} catch {
			return null;
		}
		if (decoded === current) return current;
		current = decoded;
	}
	return null;
}

/**
 * Returns the path (with query and fragment) that `target` designates on this site, or null when it leaves the
 * site or looks like an attempt to. The target is resolved against `origin` the way a browser would resolve a
 * `Location` header, and accepted only when the result has our origin; on top of that, since some proxy or a later
 * redirect may decode the path once more, the fully decoded path must be free of `//`, `\`, dot-segments and
 * control characters. Refused: scheme-relative `//host`, `/\host`, `javascript:`/`data:`, other origins, userinfo
 * (`https://ours@evil`), encoded slashes or dots (`/%2f%2fevil`, `/%2e%2e/`, double encoding), tabs and newlines,
 * relative paths without a leading `/`, and overlong input. Absolute URLs of our own origin are reduced to a path.
 */
export function safeRedirectTarget(
	target: string | null | undefined,
	origin: URL | string = config.origin
): string | null {
	if (typeof target !== 'string' || target.length === 0 || target.length > MAX_LENGTH) return null;
	if (UNSAFE.test(target)) return null;
	// Only a path from the root, or an absolute URL (which must then prove to be ours below).
	const absolute = /^[a-z][a-z\d+.-]*:\/\//i.test(target);
	if (!absolute && !(target.startsWith('/') && !target.startsWith('//'))) return null;

	const base = new URL(new URL(origin).origin);
	let url: URL;
	try {
		url = new URL(target, base);
	} catch {
		return null;
	}
	if (url.origin !== base.origin || url.username || url.password) return null;

	const path = fullyDecoded(url.pathname);
	if (path === null || UNSAFE.test(path) || path.includes('//') || /(^|\/)\.\.?(\/|$)/.test(path))
		return null;

	const result = url.pathname + url.search + url.hash;
	// Belt and braces: what we hand out must itself resolve to this site, as a browser would read it.
	if (!result.startsWith('/') || result.startsWith('//') || new URL(result, base).origin !== base.origin)
		return null;
	return result;
}

export function afterSignIn(
	user: { isAdmin: boolean },
	redirectTo: string | null | undefined,
	origin: URL | string = config.origin
): string {
	return safeRedirectTarget(redirectTo, origin) ?? homeFor(user);
}
