/**
 * The app's side of the server entry's answer to the course's files (course-media-bridge.ts): the session from its
 * cookie (session-cookie.ts, renewed as the hooks would) and the members' one decision (`memberships.courseFile`,
 * the SvelteKit route's too) — without SvelteKit's web streams around a 100 MB body. Whatever the route would answer
 * otherwise (a sign-in redirect, 403, 404) is left to it: null; an error (an outage) rejects, and the entry hands
 * it on too.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../errors';
import * as memberships from '../memberships';
import type { CourseMediaAnswer } from './course-media-bridge';
import { headerCookies, sessionOf } from './session-cookie';

const headerOf = (headers: IncomingHttpHeaders, name: string) => {
	const value = headers[name];
	return Array.isArray(value) ? value.join(', ') : (value ?? null);
};

export const answerCourseMedia: CourseMediaAnswer = async ({ method, objectPath, headers }) => {
	const cookies = headerCookies(headers.cookie);
	const opened = await sessionOf(cookies);
	if (!opened) return null;
	try {
		const answer = await memberships.courseFile(
			opened.user,
			{ method, header: (name) => headerOf(headers, name) },
			objectPath
		);
		// The session was extended by this request: its cookie is, as the hooks would (and nothing keeps the answer).
		if (cookies.setCookies.length) {
			answer.headers['set-cookie'] = cookies.setCookies.at(-1)!;
			answer.headers['cache-control'] = 'private, no-store';
		}
		return answer;
	} catch (error) {
		if (error instanceof AppError) return null;
		throw error;
	}
};
