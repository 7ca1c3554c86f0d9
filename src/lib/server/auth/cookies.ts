/** Opening and closing a session on a request: the database row and the cookie together. */
import type { RequestEvent } from '@sveltejs/kit';
import { config } from '../config';
import { db } from '../db';
import {
	createSession,
	deleteSessionCookie,
	generateSessionToken,
	invalidateSession,
	setSessionCookie
} from './session';

/** A new session at every sign-in (never reuse one that existed before: session fixation). */
export async function signInAndSetCookie(
	event: Pick<RequestEvent, 'cookies' | 'locals'>,
	userId: string
): Promise<void> {
	if (event.locals.session) await invalidateSession(db, event.locals.session.id);
	const token = generateSessionToken();
	const session = await createSession(db, token, userId);
	setSessionCookie(event.cookies, config.origin, token, session.expiresAt);
}

export async function signOut(event: Pick<RequestEvent, 'cookies' | 'locals'>): Promise<void> {
	if (event.locals.session) await invalidateSession(db, event.locals.session.id);
	deleteSessionCookie(event.cookies, config.origin);
	event.locals.session = null;
	event.locals.user = null;
}
