/**
 * Compressed answers. Pages and data (HTML, JSON, XML, text) go out in Brotli or gzip when the client accepts it:
 * cached pages are compressed once, when they enter the page cache (Brotli at its best quality: the cost is paid
 * once an hour, not per request); everything else is gzipped as it streams. Dependency-free (node:zlib only):
 * the server entry's fast path uses it too.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { setBounded } from '../../bounded-map.js';

export type Encoding = 'br' | 'gzip';

/** The encodings of one body, made once. */
export interface Encoded {
	br: Uint8Array<ArrayBuffer>;
	gzip: Uint8Array<ArrayBuffer>;
}

const COMPRESSIBLE =
	/^(?:text\/(?:html|plain|css|xml)|application\/(?:json|xml|javascript|manifest\+json|rss\+xml|atom\+xml))\b/i;
/** Below this, compression saves less than its own header costs. */
export const MIN_COMPRESSIBLE_BYTES = 1024;

export const isCompressible = (contentType: string | null | undefined) =>
	COMPRESSIBLE.test(contentType ?? '');

/**
 * The encoding to send for an Accept-Encoding header: Brotli first, then gzip, honouring q-values (q=0 refuses
 * one); null for identity.
 */
export function pickEncoding(acceptEncoding: string | null | undefined): Encoding | null {
	const key = acceptEncoding ?? '';
	const known = picked.get(key);
	if (known !== undefined) return known;
	const weightOf = weightsOf(acceptEncoding);
	const best =
		(['br', 'gzip'] as const).filter((e) => weightOf(e) > 0).sort((a, b) => weightOf(b) - weightOf(a))[0] ??
		null;
	// Browsers send a handful of distinct values: each is parsed once (a bounded map, whatever clients send).
	setBounded(picked, key, best, PICKED_MAX);
	return best;
}
const picked = new Map<string, Encoding | null>();
const PICKED_MAX = 64;

/** Whether the client takes `encoding` at all (the streamed answers can only be gzipped). */
export const accepts = (acceptEncoding: string | null | undefined, encoding: Encoding) =>
	weightsOf(acceptEncoding)(encoding) > 0;

function weightsOf(acceptEncoding: string | null | undefined): (name: Encoding) => number {
	const weights = new Map<string, number>();
	for (const part of (acceptEncoding ?? '').split(',')) {
		const [name, ...params] = part.trim().toLowerCase().split(';');
		if (!name) continue;
		const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
		const weight = q ? Number(q.slice(2)) : 1;
		weights.set(name, Number.isFinite(weight) ? weight : 0);
	}
	return (name) => weights.get(name) ?? weights.get('*') ?? 0;
}

/** A copy in a plain ArrayBuffer of its own (zlib's Buffers may share a pool). */
const copy = (buffer: Buffer): Uint8Array<ArrayBuffer> => {
	const bytes = new Uint8Array(new ArrayBuffer(buffer.byteLength));
	bytes.set(buffer);
	return bytes;
};

export function encodeOnce(body: Uint8Array): Encoded {
	return {
		br: copy(
			brotliCompressSync(body, {
				params: {
					[constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
					[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
					[constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength
				}
			})
		),
		gzip: copy(gzipSync(body, { level: 9 }))
	};
}

/** Adds `Accept-Encoding` to a Vary header's value, once. */
export function varyOnEncoding(vary: string | null | undefined): string {
	const names = (vary ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	return names.some((n) => n.toLowerCase() === 'accept-encoding' || n === '*')
		? names.join(', ')
		: [...names, 'Accept-Encoding'].join(', ');
}

/**
 * The entity tag of one encoding of a body (RFC 9110 §8.8.3): each representation has its own, so a cache or a
 * client never takes the gzip bytes for the Brotli ones. `"abc"` is `"abc-br"` in Brotli, `W/"abc"` is
 * `W/"abc-gzip"` in gzip; identity keeps the tag as it is.
 */
export function etagOf(etag: string | null | undefined, encoding: Encoding | null): string | null {
	if (!etag) return null;
	if (!encoding) return etag;
	const closing = etag.lastIndexOf('"');
	return closing > 0 ? `${etag.slice(0, closing)}-${encoding}"` : null;
}

/**
 * Whether an If-None-Match header names this tag (RFC 9110 §13.1.2: the weak comparison, `*` for any): then the
 * answer is 304 without a body.
 */
export function noneMatch(ifNoneMatch: string | null | undefined, etag: string | null): boolean {
	if (!ifNoneMatch || !etag) return false;
	if (ifNoneMatch.trim() === '*') return true;
	const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
	const wanted = opaque(etag);
	return ifNoneMatch.split(',').some((tag) => opaque(tag) === wanted);
}

/**
 * The headers of a 304 (RFC 9110 §15.4.5): the 200's, less the length and encoding of the body that is not sent.
 * The type stays: it says the answer was a page (the audience counts a page revalidated by the browser as viewed).
 */
export function notModifiedHeaders<T extends [string, string]>(headers: Iterable<T>): T[] {
	return [...headers].filter(
		([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name)
	);
}
