/**
 * An object of the private bucket answered to someone already allowed to have it (the course's files): ranges,
 * HEAD, a strong ETag, 304, private caching, nosniff, and a download name for an attachment. The answer's body is
 * the storage's stream, read as it is sent: the server entry pipes it to the socket (course-media-bridge.ts), the
 * SvelteKit route wraps it in a Response (http/media.ts); a client that goes away ends the read either way.
 * Infrastructure beside the drivers: no SvelteKit, no domain.
 */
import type { Readable } from 'node:stream';
import type { Storage } from './types';
import { contentRange, decideRange, ifRangeHolds, noneMatch } from './byte-ranges';

export interface MediaOptions {
	/** The name an attachment downloads under; absent, the object is shown inline (a video, its captions). */
	downloadName?: string;
	cacheControl: string;
}

/** What a request reads of a media request: the method and the three conditional headers. */
export interface MediaRequest {
	method: string;
	header: (name: 'range' | 'if-range' | 'if-none-match') => string | null;
}

export interface MediaAnswer {
	status: number;
	headers: Record<string, string>;
	/** Opens the body: the storage's stream of the bytes to send; null for HEAD, 304, 416 and an empty object. */
	body: (() => Promise<Readable | null>) | null;
	/** The same bytes as a file on this machine (the files driver): the server entry sends them from it. */
	file?: { path: string; start: number; end: number };
}

/** null when the object is not in the bucket. */
export async function mediaAnswer(
	request: MediaRequest,
	storage: Storage,
	objectPath: string,
	{ downloadName, cacheControl }: MediaOptions
): Promise<MediaAnswer | null> {
	const info = await storage.stat(objectPath);
	if (!info) return null;
	const headers: Record<string, string> = {
		'accept-ranges': 'bytes',
		'cache-control': cacheControl,
		etag: info.etag,
		'last-modified': info.lastModified.toUTCString(),
		'x-content-type-options': 'nosniff',
		'content-type': info.contentType
	};
	if (downloadName !== undefined) headers['content-disposition'] = attachmentDisposition(downloadName);
	if (noneMatch(request.header('if-none-match'), info.etag)) return { status: 304, headers, body: null };

	const decision = ifRangeHolds(request.header('if-range'), info.etag, info.lastModified)
		? decideRange(request.header('range'), info.size)
		: ({ kind: 'whole' } as const);
	if (decision.kind === 'unsatisfiable') {
		delete headers['content-type'];
		return {
			status: 416,
			headers: { ...headers, 'content-range': `bytes */${info.size}`, 'content-length': '0' },
			body: null
		};
	}
	const range = decision.kind === 'partial' ? decision.range : null;
	const length = range ? range.end - range.start + 1 : info.size;
	headers['content-length'] = String(length);
	if (range) headers['content-range'] = contentRange(range, info.size);
	const status = range ? 206 : 200;
	if (request.method === 'HEAD' || length === 0) return { status, headers, body: null };

	const start = range?.start ?? 0;
	const end = range?.end ?? info.size - 1;
	const open = async () => (await storage.read(objectPath, range ?? undefined))?.body ?? null;
	return {
		status,
		headers,
		body: open,
		...(storage.localFile && { file: { path: storage.localFile(objectPath), start, end } })
	};
}

/**
 * `Content-Disposition` for a file named by a person (an attachment's title): an ASCII fallback in `filename`
 * (accents dropped, quotes, backslashes and controls replaced) and the exact name in `filename*` (RFC 6266, 8187).
 */
export function attachmentDisposition(name: string): string {
	const cleaned =
		name
			// eslint-disable-next-line no-control-regex
			.replace(/[\u0000-\u001f\u007f/\\]/g, ' ')
			.replace(/\s+/g, ' ')
			.trim()
			.slice(0, 150) || 'fichier';
	const ascii = cleaned
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^\x20-\x7e]/g, '_')
		.replace(/["%]/g, '_');
	const encoded = encodeURIComponent(cleaned).replace(
		/['()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
	);
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
