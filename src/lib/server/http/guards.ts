/**
 * The authority on who may do what, for SvelteKit. `requireAdmin` is the seed's verifyAdmin(): the first line of
 * every admin load, action and API handler (tests/static/route-guards.test.ts walks src/routes to prove it).
 * Layout redirects are for navigation only. The policy itself is `decide` (auth/access.ts), free of HTTP.
 */
import { redirect, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import * as auth from '../auth';
import { decide } from '../auth';
import type { SessionUser } from '../auth/session';
import { ForbiddenError, UnauthorizedError } from '../errors';
import { setFlash } from './flash';

/**
 * What a guard reads of a request: by default the request being handled (`getRequestEvent()`), so that shared
 * action sets (`admin/demandes/lead-actions.server.ts`) guard themselves and routes use them as they are; plain
 * tests pass their own.
 */
type GuardEvent = { locals: App.Locals; url: URL; route: { id: string | null }; cookies: Cookies };

const isApi = (event: GuardEvent) =>
	event.route.id?.startsWith('/api/') ?? event.url.pathname.startsWith('/api/');

export function loginUrl(url: URL): string {
	return `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** Members' pages: signed-out visitors go to the sign-in page and come back afterwards; the API answers 401. */
export function requireUser(event: GuardEvent = getRequestEvent()): SessionUser {
	const user = event.locals.user;
	if (decide(user, 'user') === 'allow') return user!;
	if (isApi(event)) throw new UnauthorizedError();
	redirect(303, loginUrl(event.url));
}

const SECOND_FACTOR_REQUIRED =
	'La double authentification est obligatoire pour les administrateurs : activez-la depuis /profil/securite.';

/**
 * Admin pages and API. The API answers 401 (signed out) or 403 (not an admin) as problem details. Pages send
 * non-admins to `/` (CONTRACT §4) — or to `/setup-admin` while no admin exists yet —, a signed-in member with a
 * message that says the page is for administrators and links their own space (SEED part 5).
 */
export async function requireAdmin(event: GuardEvent = getRequestEvent()): Promise<SessionUser> {
	const user = event.locals.user;
	const decision = decide(user, 'admin');
	if (decision === 'allow') {
		// ADMIN_2FA=required: an admin without a second factor enrols before the admin answers them. The page they
		// land on says why itself (no flash: it was said twice).
		if (!auth.mustEnrol(user!)) return user!;
		if (isApi(event)) throw new ForbiddenError(SECOND_FACTOR_REQUIRED);
		redirect(303, '/profil/securite');
	}
	if (isApi(event)) throw decision === 'unauthenticated' ? new UnauthorizedError() : new ForbiddenError();
	if ((await auth.adminState()) === 'none') redirect(303, '/setup-admin');
	if (decision === 'forbidden') setFlash(event.cookies, 'admin-only');
	redirect(303, '/');
}

/** Who is changing their own account, from where: the session's budget and the security e-mail's device. */
export const changeOrigin = (
	event: Pick<RequestEvent, 'locals' | 'request' | 'getClientAddress'>
): auth.ChangeOrigin => ({
	sessionId: event.locals.session!.id,
	userAgent: event.request.headers.get('user-agent'),
	address: event.getClientAddress()
});
