/**
 * The session cookie's one owner: it is read, validated, renewed and deleted here — for SvelteKit's requests (the
 * hooks) and for the server entry's own answers (the course's files, through `headerCookies`) alike — and opened
 * and closed together with the database row (the auth domain's `openSession` / `closeSession`). `__Host-` with
 * Secure behind https: the browser then refuses the cookie from any other host or path.
 */
import { redirect, type Cookies, type RequestEvent } from '@sveltejs/kit';
import * as auth from '../auth';
import { config } from '../config';
import type { SuperValidated } from 'sveltekit-superforms';
import { formFailure } from './forms';
import { sessionCookieName } from './session-cookie-name';

export { sessionCookieName };

/** What the session needs of a request's cookies: SvelteKit's `Cookies`, or a raw request's (`headerCookies`). */
export type CookieJar = Pick<Cookies, 'get' | 'set' | 'delete'>;

/**
 * The session a request's cookie names, validated: its cookie renewed when the session was extended, deleted when
 * it leads nowhere. What the database throws is thrown (the hooks answer an outage with the 503 page).
 */
export async function sessionOf(cookies: CookieJar) {
	const token = cookies.get(sessionCookieName(config.origin));
	if (!token) return null;
	const result = await auth.validateSession(token);
	if (!result.session || !result.user) {
		deleteSessionCookie(cookies, config.origin);
		return null;
	}
	if (result.renewed) setSessionCookie(cookies, config.origin, token, result.session.expiresAt);
	return { user: result.user, session: result.session };
}

type CookieOptions = Parameters<Cookies['set']>[2];

function serialize(name: string, value: string, options: CookieOptions): string {
	const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`];
	if (options.expires) parts.push(`Expires=${options.expires.toUTCString()}`);
	if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
	if (options.httpOnly) parts.push('HttpOnly');
	if (options.sameSite)
		parts.push(`SameSite=${String(options.sameSite).replace(/^./, (c) => c.toUpperCase())}`);
	if (options.secure) parts.push('Secure');
	return parts.join('; ');
}

/**
 * A raw request's `Cookie` header as a jar, for an answer the server entry sends itself: what the session sets is
 * collected in `setCookies`, the response's `Set-Cookie` lines, with the attributes SvelteKit's would have.
 */
export function headerCookies(header: string | undefined): CookieJar & { setCookies: string[] } {
	const values = new Map<string, string>();
	for (const pair of (header ?? '').split(';')) {
		const at = pair.indexOf('=');
		if (at < 0) continue;
		const name = pair.slice(0, at).trim();
		if (values.has(name)) continue;
		try {
			values.set(name, decodeURIComponent(pair.slice(at + 1).trim()));
		} catch {
			// A broken escape is no cookie of ours: as if absent.
		}
	}
	const setCookies: string[] = [];
	return {
		setCookies,
		get: (name) => values.get(name),
		set: (name, value, options) => void setCookies.push(serialize(name, value, options)),
		delete: (name, options) => void setCookies.push(serialize(name, '', { ...options, maxAge: 0 }))
	};
}

export function setSessionCookie(cookies: CookieJar, origin: URL, token: string, expiresAt: Date): void {
	cookies.set(sessionCookieName(origin), token, {
		httpOnly: true,
		sameSite: 'lax',
		path: '/',
		secure: origin.protocol === 'https:',
		expires: expiresAt
	});
}

export function deleteSessionCookie(cookies: CookieJar, origin: URL): void {
	cookies.delete(sessionCookieName(origin), {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: origin.protocol === 'https:'
	});
}

/** The browser's device cookie (auth/device.ts): read at sign-in, renewed by each successful one. */
export const deviceCookieOf = (cookies: Cookies) => cookies.get(auth.deviceCookieName(config.origin));

export function setDeviceCookie(cookies: Cookies, token: string): void {
	cookies.set(auth.deviceCookieName(config.origin), token, {
		httpOnly: true,
		sameSite: 'lax',
		path: '/',
		secure: config.origin.protocol === 'https:',
		expires: new Date(Date.now() + auth.DEVICE_COOKIE_LIFETIME_MS)
	});
}

/** Between the password and the code: HttpOnly, only sent to /login, gone after ten minutes. */
const pendingSignInCookie = () =>
	config.origin.protocol === 'https:' ? '__Secure-pending-sign-in' : 'pending-sign-in';
const PENDING_COOKIE_PATH = '/login';

export function setPendingSignIn(cookies: Cookies, token: string): void {
	cookies.set(pendingSignInCookie(), token, {
		httpOnly: true,
		sameSite: 'lax',
		path: PENDING_COOKIE_PATH,
		secure: config.origin.protocol === 'https:',
		maxAge: auth.PENDING_SIGN_IN_LIFETIME_MS / 1000
	});
}

export const pendingSignInOf = (cookies: Cookies) => cookies.get(pendingSignInCookie());

export function clearPendingSignIn(cookies: Cookies): void {
	cookies.delete(pendingSignInCookie(), {
		path: PENDING_COOKIE_PATH,
		httpOnly: true,
		sameSite: 'lax',
		secure: config.origin.protocol === 'https:'
	});
}

type SessionEvent = Pick<RequestEvent, 'cookies' | 'locals'>;
type EnterEvent = SessionEvent & Pick<RequestEvent, 'request' | 'getClientAddress'>;

/**
 * Opens what the proof leads to (auth's `openSession`): a new session at every sign-in (never one that existed
 * before: session fixation), with what /profil shows of it — the browser's User-Agent and the network of its
 * address; or, for an account with a second factor, the pending sign-in of the code step. Not exported: a route
 * enters an account through `enterAccount`, or `enterAfterSecondFactor` at the code step
 * (tests/static/session-entry.test.ts).
 */
async function open(event: EnterEvent, proof: auth.SignInProof) {
	const opened = await auth.openSession(proof, {
		userAgent: event.request.headers.get('user-agent'),
		address: event.getClientAddress()
	});
	if (opened.next === 'code') {
		setPendingSignIn(event.cookies, opened.pendingToken);
		return opened;
	}
	if (event.locals.session) await auth.closeSession(event.locals.session.id);
	setSessionCookie(event.cookies, config.origin, opened.token, opened.session.expiresAt);
	return opened;
}

const codeStep = (redirectTo: string | null | undefined) =>
	`/login/code${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`;

/**
 * The one way into a session after a password (sign-in, registration, first admin, a reset or welcome link): an
 * account with a second factor is sent to /login/code with a pending sign-in, whatever proved the password;
 * any other opens its session. Redirects either way.
 */
export async function enterAccount(
	event: EnterEvent,
	proof: auth.SignInProof,
	options: LeadInOptions = {}
): Promise<never> {
	leadIn(event, proof, await open(event, proof), options);
}

interface LeadInOptions {
	redirectTo?: string | null;
	deviceToken?: string;
}

/** Where an opened sign-in goes: the code step, or the account's page (with the device's cookie). */
function leadIn(
	event: EnterEvent,
	proof: auth.SignInProof,
	opened: Awaited<ReturnType<typeof open>>,
	{ redirectTo, deviceToken }: LeadInOptions
): never {
	if (opened.next === 'code') redirect(303, codeStep(redirectTo));
	if (deviceToken) setDeviceCookie(event.cookies, deviceToken);
	redirect(303, auth.afterSignIn(proof.user, redirectTo));
}

/**
 * The end of a password form that opens a session (registration, first admin, a reset or welcome link): the proof
 * asked of the accounts domain; refused, the form comes back with its French message and without its password;
 * proved, the way in is `enterAccount`'s.
 */
export async function enterWithProof(
	event: EnterEvent & Pick<RequestEvent, 'setHeaders'>,
	form: SuperValidated<{ password: string } & Record<string, unknown>, App.Superforms.Message>,
	prove: () => Promise<auth.SignInProof>,
	options?: Parameters<typeof enterAccount>[2]
) {
	let proof;
	let opened;
	try {
		proof = await prove();
		// The session is opened inside too: an outage between the account's row and its session's (a full disk)
		// brings the form back with what was typed and its French message, as an outage before it does.
		opened = await open(event, proof);
	} catch (error) {
		form.data.password = '';
		return formFailure(event, form, error);
	}
	leadIn(event, proof, opened, options ?? {});
}

/** The code step's way in: only the proof of a code verified by `auth.completeSignIn` opens the session. */
export async function enterAfterSecondFactor(
	event: EnterEvent,
	signedIn: Awaited<ReturnType<typeof auth.completeSignIn>>
): Promise<void> {
	clearPendingSignIn(event.cookies);
	await open(event, signedIn.proof);
	setDeviceCookie(event.cookies, signedIn.deviceToken);
}

export async function signOut(event: SessionEvent): Promise<void> {
	if (event.locals.session) await auth.closeSession(event.locals.session.id);
	deleteSessionCookie(event.cookies, config.origin);
	event.locals.session = null;
	event.locals.user = null;
}
