/**
 * The most sensitive admin actions (deleting a user, granting or removing admin, removing someone's second factor)
 * want this session to have proved its user again in the last ten minutes; otherwise the admin is sent to
 * /admin/confirmer, and comes back to the page they were on.
 */
import { redirect } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import * as auth from '../auth';

type ReauthEvent = { locals: App.Locals; url: URL };

/** Back to the page the action was posted from (its query string without the `?/action` part). */
export function confirmationUrl(url: URL): string {
	const params = new URLSearchParams([...url.searchParams].filter(([key]) => !key.startsWith('/')));
	const back = url.pathname + (params.size ? `?${params}` : '');
	return `/admin/confirmer?redirectTo=${encodeURIComponent(back)}`;
}

/** Where a confirmation returns: a page of the admin, else the admin's home. */
export const afterConfirmation = (redirectTo: string | null) =>
	redirectTo && /^\/admin(?:[/?]|$)/.test(redirectTo) && !redirectTo.startsWith('//') ? redirectTo : '/admin';

/** Call after `requireAdmin`: passes when the session re-authenticated within ten minutes, else redirects. */
export function requireRecentAuthentication(event: ReauthEvent = getRequestEvent()): void {
	const session = event.locals.session;
	if (session && auth.isRecentlyReauthenticated(session)) return;
	redirect(303, confirmationUrl(event.url));
}
