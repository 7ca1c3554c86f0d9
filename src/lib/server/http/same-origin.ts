/**
 * A request that changes something, sent by a page of another site, is refused whatever its body's type.
 * SvelteKit refuses such a request only when its body is a form's (`csrf.checkOrigin`: url-encoded, multipart,
 * plain text); the admin's JSON API (content, courses, candidatures…) relied on the browser's preflight alone —
 * one CORS header added by a proxy, or a browser's bug, away from a cross-site write with the admin's cookie.
 * Browsers send `Origin` on every cross-origin write and every same-origin one but a form's GET; a request without
 * it (a script, curl, Stripe's webhook) is not a browser acting for someone else, and is left to the route's own
 * checks (the session cookie is `SameSite=Lax` and the webhook is signed). `Origin: null` (a sandboxed frame, a
 * redirect across sites) is foreign.
 */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isForeignWrite(request: Request, ownOrigin: string): boolean {
	if (READS.has(request.method)) return false;
	const origin = request.headers.get('origin');
	return origin !== null && origin !== ownOrigin;
}
