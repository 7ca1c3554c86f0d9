/**
 * An object of the private bucket answered to someone already allowed to have it (the course's files): ranges,
 * HEAD, a strong ETag, 304, private caching, nosniff, and a download name for an attachment. The body is the
 * storage's stream passed on as it is read (never buffered); a client that goes away cancels it, and so the read.
 */
import { Readable } from 'node:stream';
import type { Storage } from '../storage';
import { contentRange, decideRange, ifRangeHolds, noneMatch } from './byte-ranges';
import { attachmentDisposition } from './attachment';

export interface MediaOptions {
	/** The name an attachment downloads under; absent, the object is shown inline (a video, its captions). */
	downloadName?: string;
	cacheControl: string;
}

/** null when the object is not in the bucket. */
export async function mediaResponse(
	request: Request,
	storage: Storage,
	objectPath: string,
	{ downloadName, cacheControl }: MediaOptions
): Promise<Response | null> {
	const info = await storage.stat(objectPath);
	if (!info) return null;
	const headers = new Headers({
		'accept-ranges': 'bytes',
		'cache-control': cacheControl,
		etag: info.etag,
		'last-modified': info.lastModified.toUTCString(),
		'x-content-type-options': 'nosniff',
		'content-type': info.contentType
	});
	if (downloadName !== undefined) headers.set('content-disposition', attachmentDisposition(downloadName));
	if (noneMatch(request.headers.get('if-none-match'), info.etag))
		return new Response(null, { status: 304, headers });

	const decision = ifRangeHolds(request.headers.get('if-range'), info.etag, info.lastModified)
		? decideRange(request.headers.get('range'), info.size)
		: ({ kind: 'whole' } as const);
	if (decision.kind === 'unsatisfiable') {
		headers.set('content-range', `bytes */${info.size}`);
		headers.delete('content-type');
		headers.set('content-length', '0');
		return new Response(null, { status: 416, headers });
	}
	const range = decision.kind === 'partial' ? decision.range : null;
	const length = range ? range.end - range.start + 1 : info.size;
	headers.set('content-length', String(length));
	if (range) headers.set('content-range', contentRange(range, info.size));
	const status = range ? 206 : 200;
	if (request.method === 'HEAD' || length === 0) return new Response(null, { status, headers });

	const object = await storage.read(objectPath, range ?? undefined);
	if (!object) return null;
	object.body.on('error', () => {
		// A storage read that fails midway ends the response short; the client sees the cut and asks again.
	});
	return new Response(Readable.toWeb(object.body) as ReadableStream, { status, headers });
}
