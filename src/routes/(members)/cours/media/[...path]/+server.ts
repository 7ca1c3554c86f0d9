import { error } from '@sveltejs/kit';
import { Readable } from 'node:stream';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import { mediaResponse } from '$lib/server/http/media';
import * as images from '$lib/server/images';
import * as memberships from '$lib/server/memberships';
import type { SessionUser } from '$lib/server/auth';
import type { RequestEvent, RequestHandler } from './$types';

/**
 * The course's files, for those who may read the courses only, checked on every request (a range included): never
 * a signed URL in a page. In production the server entry answers the course's own files itself with the same rules
 * (src/server/course-media.ts), and hands this route what it does not answer (no session, no access, no file). Under `course/`, a lesson's video, captions, poster and worksheets — served with byte
 * ranges to whoever may read their module (courses.serveMedia); elsewhere, the images of a module's Markdown. The
 * object is streamed from the private bucket; a client that goes away cancels the stream (and the read).
 */
async function serve(event: RequestEvent, user: SessionUser): Promise<Response> {
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) error(403, 'Les fichiers des cours sont réservés aux membres.');
	if (event.params.path.startsWith('course/')) {
		try {
			const request = {
				method: event.request.method,
				header: (name: string) => event.request.headers.get(name)
			};
			return await mediaResponse(await courses.mediaAnswerOf(request, event.params.path, user));
		} catch (failure) {
			if (failure instanceof AppError) error(failure.status, failure.message);
			throw failure;
		}
	}
	const stored = await images.readStored(event.params.path);
	if (!stored) error(404, 'Image introuvable.');
	stored.body.on('error', () => {
		// A storage read that fails midway ends the response; the error is the storage driver's to log.
	});
	if (event.request.method === 'HEAD') stored.body.destroy();
	return new Response(
		event.request.method === 'HEAD' ? null : (Readable.toWeb(stored.body) as ReadableStream),
		{
			headers: {
				'content-type': stored.info.contentType,
				'content-length': String(stored.info.size),
				'cache-control': 'private, max-age=3600',
				'x-content-type-options': 'nosniff'
			}
		}
	);
}

export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	return serve(event, user);
};

export const HEAD: RequestHandler = async (event) => {
	const user = requireUser(event);
	return serve(event, user);
};
