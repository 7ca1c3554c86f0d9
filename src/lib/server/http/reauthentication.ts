/**
 * The most sensitive admin actions (deleting a user, granting or removing admin, removing someone's second factor,
 * downloading a backup) want this session to have proved its user again in the last ten minutes. Otherwise the
 * action is kept — in a signed cookie bound to this session, set in answer to the admin's own POST — the admin is
 * sent to /admin/confirmer, and the right password or code carries it out, with a message saying what was done
 * (issue "Trust, part 2", point 7). A link someone else crafts cannot bring an action to the confirmation: only a
 * form posted from the admin's page (same-origin, SvelteKit's CSRF check) sets the cookie.
 */
import { redirect, type Cookies, type RequestEvent } from '@sveltejs/kit';
import type { FlashKey } from '$lib/messages';
import * as auth from '../auth';
import { config } from '../config';
import { AppError } from '../errors';
import { sign, verifySignature } from '../signing';
import { setFlash } from './flash';

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

export const isRecentlyConfirmed = (event: ReauthEvent) =>
	!!event.locals.session && auth.isRecentlyReauthenticated(event.locals.session);

// ——— The action kept across the confirmation ———

/**
 * What a confirmed action does; it returns what to say — `done` where the form was, `flash` after the confirmation
 * page — and may throw a typed error.
 */
export type ConfirmedAction = (
	admin: auth.SessionUser,
	targetId: string,
	origin: { userAgent: string | null; address: string }
) => Promise<{ done: string; flash: FlashKey }>;

const DEFERRED_COOKIE = 'pending-admin-action';
const DEFERRED_LIFETIME_S = 10 * 60;
const cookieOptions = () => ({
	path: '/admin',
	httpOnly: true,
	sameSite: 'strict' as const,
	secure: config.origin.protocol === 'https:'
});

const signedPayload = (session: string, action: string, target: string, expires: number) =>
	`admin-action:${session}.${action}.${target}.${expires}`;

/**
 * Keeps `action` on `target` for this session (ten minutes), then sends the admin to /admin/confirmer. Call with
 * the request's body already read: never leave it unread on a kept-alive connection.
 */
export function deferUntilConfirmed(
	event: Pick<RequestEvent, 'cookies' | 'locals' | 'url'>,
	action: string,
	target: string,
	back: URL = event.url
): never {
	const session = event.locals.session!.id;
	const expires = Date.now() + DEFERRED_LIFETIME_S * 1000;
	const signature = sign(config.signingSecret, signedPayload(session, action, target, expires));
	event.cookies.set(DEFERRED_COOKIE, [action, target, expires, signature].join('.'), {
		...cookieOptions(),
		maxAge: DEFERRED_LIFETIME_S
	});
	redirect(303, confirmationUrl(back));
}

/** The kept action, when its cookie is this session's, unexpired and signed by us. */
export function peekDeferred(cookies: Cookies, sessionId: string): { action: string; target: string } | null {
	const value = cookies.get(DEFERRED_COOKIE);
	if (!value) return null;
	const [action, target, expiresText, signature, ...rest] = value.split('.');
	const expires = Number(expiresText);
	if (!action || !target || !signature || rest.length || !(expires > Date.now())) return null;
	const valid = verifySignature(
		config.signingSecret,
		signedPayload(sessionId, action, target, expires),
		signature
	);
	return valid ? { action, target } : null;
}

/** The kept action, read once: its cookie is removed either way. */
function takeDeferred(cookies: Cookies, sessionId: string): { action: string; target: string } | null {
	const deferred = peekDeferred(cookies, sessionId);
	if (cookies.get(DEFERRED_COOKIE) !== undefined) cookies.delete(DEFERRED_COOKIE, cookieOptions());
	return deferred;
}

/**
 * After a successful confirmation: carries out the kept action, if any, and leaves its message for the next page.
 * A refusal (the last admin, an account gone meanwhile) is said as such; the list shows the rest.
 */
export async function carryOutDeferred(
	event: Pick<RequestEvent, 'cookies' | 'locals' | 'request' | 'getClientAddress'>,
	admin: auth.SessionUser,
	actions: Record<string, ConfirmedAction>
): Promise<void> {
	const deferred = takeDeferred(event.cookies, event.locals.session!.id);
	if (!deferred || !Object.hasOwn(actions, deferred.action)) return;
	const origin = { userAgent: event.request.headers.get('user-agent'), address: event.getClientAddress() };
	try {
		setFlash(event.cookies, (await actions[deferred.action]!(admin, deferred.target, origin)).flash);
	} catch (error) {
		if (!(error instanceof AppError)) throw error;
		setFlash(event.cookies, 'confirmed-failed');
	}
}
