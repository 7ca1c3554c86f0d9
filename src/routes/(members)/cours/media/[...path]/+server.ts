import { error } from '@sveltejs/kit';
import { Readable } from 'node:stream';
import { requireUser } from '$lib/server/http/guards';
import * as images from '$lib/server/images';
import * as memberships from '$lib/server/memberships';
import type { RequestHandler } from './$types';

/**
 * The images of course modules, for those who may read the courses only: never a signed URL in a page. The
 * object is streamed from the private bucket; a client that goes away cancels the stream (and the read).
 */
export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) error(403, 'Les images des cours sont réservées aux membres.');
	const stored = await images.readStored(event.params.path);
	if (!stored) error(404, 'Image introuvable.');
	stored.body.on('error', () => {
		// A storage read that fails midway ends the response; the error is the storage driver's to log.
	});
	return new Response(Readable.toWeb(stored.body) as ReadableStream, {
		headers: {
			'content-type': stored.info.contentType,
			'content-length': String(stored.info.size),
			'cache-control': 'private, max-age=3600',
			'x-content-type-options': 'nosniff'
		}
	});
};
