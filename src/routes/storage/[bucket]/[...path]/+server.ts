import { Readable } from 'node:stream';
import type { RequestHandler } from '@sveltejs/kit';
import { problem } from '$lib/server/http/problem';
import * as images from '$lib/server/images';

/**
 * The fs driver's signed URLs. Nothing here is reachable without a valid, unexpired signature; with the s3
 * driver the route does not exist at all (signed URLs point at the S3 server).
 */
export const GET: RequestHandler = async ({ params, url, request }) => {
	const read = await images.readSignedObject(
		params.bucket ?? '',
		params.path ?? '',
		url.searchParams,
		request.headers.get('if-none-match')
	);
	if (!read) return problem(404, 'Introuvable.');
	if (read.outcome === 'forbidden') return problem(403, 'Lien signé invalide ou expiré.');
	if (read.outcome === 'missing') return problem(404, 'Introuvable.');
	const headers = new Headers({
		'content-type': read.info.contentType,
		// What was stored with the object, as S3 answers a presigned GET, so that both drivers behave alike.
		'cache-control': read.info.cacheControl || 'private, max-age=300',
		etag: read.info.etag,
		'last-modified': read.info.lastModified.toUTCString(),
		'x-robots-tag': 'noindex, nofollow'
	});
	if (read.outcome === 'not-modified') return new Response(null, { status: 304, headers });
	headers.set('content-length', String(read.info.size));
	return new Response(Readable.toWeb(read.body) as ReadableStream, { headers });
};
