import { Readable } from 'node:stream';
import type { RequestHandler } from '@sveltejs/kit';
import { problem } from '$lib/server/http/problem';
import { FsStorage, storage } from '$lib/server/storage';

/**
 * The fs driver's signed URLs. Nothing here is reachable without a valid, unexpired signature; with the s3
 * driver the route does not exist at all (signed URLs point at the S3 server).
 */
export const GET: RequestHandler = async ({ params, url, request }) => {
	if (!(storage instanceof FsStorage) || params.bucket !== storage.bucket)
		return problem(404, 'Introuvable.');
	const granted = storage.verifySignedRequest(params.path ?? '', url.searchParams);
	if (!granted) return problem(403, 'Lien signé invalide ou expiré.');
	const object = await storage.read(granted);
	if (!object) return problem(404, 'Introuvable.');
	const headers = new Headers({
		'content-type': object.info.contentType,
		'cache-control': 'private, max-age=300',
		etag: object.info.etag,
		'last-modified': object.info.lastModified.toUTCString(),
		'x-robots-tag': 'noindex, nofollow'
	});
	if (request.headers.get('if-none-match') === object.info.etag) {
		object.body.destroy();
		return new Response(null, { status: 304, headers });
	}
	headers.set('content-length', String(object.info.size));
	return new Response(Readable.toWeb(object.body) as ReadableStream, { headers });
};
