/**
 * The authority on who may do what. `requireAdmin` is the seed's verifyAdmin(): the first line of every admin
 * load, action and API handler (a test walks src/routes to prove it). Layout redirects are for navigation only.
 */
import { redirect } from '@sveltejs/kit';
import { db } from '../db';
import { ForbiddenError, UnauthorizedError } from '../errors';
import { adminExists } from './accounts';
import { safeRedirectTarget } from './redirects';
import type { SessionUser } from './session';

export type Decision = 'allow' | 'unauthenticated' | 'forbidden';

/** The policy alone, without any HTTP: who may pass a guard of the given level. */
export function decide(user: SessionUser | null, level: 'user' | 'admin'): Decision {
	if (!user) return 'unauthenticated';
	if (level === 'admin' && !user.isAdmin) return 'forbidden';
	return 'allow';
}

/** What a guard reads of a request: enough for loads, actions, handlers and plain tests alike. */
type GuardEvent = { locals: App.Locals; url: URL; route: { id: string | null } };

const isApi = (event: GuardEvent) =>
	event.route.id?.startsWith('/api/') ?? event.url.pathname.startsWith('/api/');

/**
 * The sign-in page, with the way back. The way back is the request's own path, but it still goes through
 * `safeRedirectTarget`: a path such as `//evil.example/x` reaching a guard must not become a link off the site.
 */
export function loginUrl(url: URL): string {
	const back = safeRedirectTarget(url.pathname + url.search, url);
	return back ? `/login?redirectTo=${encodeURIComponent(back)}` : '/login';
}

/** Members' pages: signed-out visitors go to the sign-in page and come back afterwards; the API answers 401. */
export function requireUser(event: GuardEvent): SessionUser {
	const user = event.locals.user;
	if (decide(user, 'user') === 'allow') return user!;
	if (isApi(event)) throw new UnauthorizedError();
	redirect(303, loginUrl(event.url));
}

/**
 * Admin pages and API. The API answers 401 (signed out) or 403 (not an admin) as problem details. Pages send
 * non-admins to `/` (CONTRACT §4) — or to `/setup-admin` while no admin exists yet.
 */
export async function requireAdmin(event: GuardEvent): Promise<SessionUser> {
	const user = event.locals.user;
	const decision = decide(user, 'admin');
	if (decision === 'allow') return user!;
	if (isApi(event)) throw decision === 'unauthenticated' ? new UnauthorizedError() : new ForbiddenError();
	if (!(await adminExists(db))) redirect(303, '/setup-admin');
	redirect(303, '/');
}
