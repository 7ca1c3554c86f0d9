import { error } from '@sveltejs/kit';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import { mediaResponse } from '$lib/server/http/media';
import * as memberships from '$lib/server/memberships';
import type { SessionUser } from '$lib/server/auth';
import type { RequestEvent, RequestHandler } from './$types';

/**
 * The course's files, for those who may read the courses only, checked on every request (a range included): never
 * a signed URL in a page. What may be read is decided once, by `memberships.courseFile` — the member's access, then
 * the module's rules — which the server entry applies too when it answers the course's own files itself in
 * production (src/server/course-media.ts) and hands this route what it does not answer. The object is streamed
 * from the private bucket, with byte ranges; a client that goes away cancels the stream (and the read).
 */
async function serve(event: RequestEvent, user: SessionUser): Promise<Response> {
	const request = { method: event.request.method, header: (name: string) => event.request.headers.get(name) };
	try {
		return await mediaResponse(await memberships.courseFile(user, request, event.params.path));
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
}

export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	return serve(event, user);
};

export const HEAD: RequestHandler = async (event) => {
	const user = requireUser(event);
	return serve(event, user);
};
