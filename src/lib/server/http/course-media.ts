/**
 * The app's side of the server entry's answer to the course's files (course-media-bridge.ts): the session from its
 * cookie, the member's access, the module's rules and the ranges — the very checks and answer of the SvelteKit
 * route, without SvelteKit's web streams around a 100 MB body. Whatever the route would answer otherwise (a
 * sign-in redirect, 403, 404) is left to it: null; an error (an outage) rejects, and the entry hands it on too.
 */
import type { IncomingHttpHeaders } from 'node:http';
import * as auth from '../auth';
import { sessionCookieName } from '../auth/cookie-name';
import { config } from '../config';
import * as courses from '../courses';
import { AppError } from '../errors';
import * as memberships from '../memberships';
import type { CourseMediaAnswer } from './course-media-bridge';

/** The session cookie's value in a raw Cookie header, or null. */
function sessionToken(headers: IncomingHttpHeaders): string | null {
	const prefix = `${sessionCookieName(config.origin)}=`;
	for (const pair of (headers.cookie ?? '').split(';')) {
		const trimmed = pair.trim();
		if (trimmed.startsWith(prefix)) return decodeURIComponent(trimmed.slice(prefix.length));
	}
	return null;
}

/** The session cookie as http/session-cookie.ts sets it through SvelteKit: same name, same attributes. */
function renewedCookie(token: string, expiresAt: Date): string {
	const secure = config.origin.protocol === 'https:' ? '; Secure' : '';
	return `${sessionCookieName(config.origin)}=${encodeURIComponent(token)}; Path=/; Expires=${expiresAt.toUTCString()}; HttpOnly; SameSite=Lax${secure}`;
}

const headerOf = (headers: IncomingHttpHeaders, name: string) => {
	const value = headers[name];
	return Array.isArray(value) ? value.join(', ') : (value ?? null);
};

export const answerCourseMedia: CourseMediaAnswer = async ({ method, objectPath, headers }) => {
	const token = sessionToken(headers);
	if (!token) return null;
	const { session, user, renewed } = await auth.validateSession(token);
	if (!session || !user) return null;
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) return null;
	try {
		const answer = await courses.mediaAnswerOf(
			{ method, header: (name) => headerOf(headers, name) },
			objectPath,
			user
		);
		// The session was extended by this request: its cookie is, as the hooks would (and nothing keeps the answer).
		if (renewed) {
			answer.headers['set-cookie'] = renewedCookie(token, session.expiresAt);
			answer.headers['cache-control'] = 'private, no-store';
		}
		return answer;
	} catch (error) {
		if (error instanceof AppError) return null;
		throw error;
	}
};
