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
	/^(?:text\/(?:html|plain|css|xml)|application\/(?:json|xml|javascript|manifest\+json))\b/i;
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
