import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
	accepts,
	encodeOnce,
	etagOf,
	isCompressible,
	noneMatch,
	notModifiedHeaders,
	pickEncoding,
	varyOnEncoding
} from './compression';

describe('compression', () => {
	it('prefers Brotli, then gzip, and honours q-values and refusals', () => {
		expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
		expect(pickEncoding('gzip, deflate')).toBe('gzip');
		expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
		expect(pickEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
		expect(pickEncoding('*')).toBe('br');
		expect(pickEncoding('*;q=0')).toBeNull();
		expect(pickEncoding('identity')).toBeNull();
		expect(pickEncoding('')).toBeNull();
		expect(pickEncoding(null)).toBeNull();
		expect(accepts('br', 'gzip')).toBe(false);
		expect(accepts('gzip;q=0.5', 'gzip')).toBe(true);
	});

	it('encodes once into bodies that decode to the same bytes, smaller', () => {
		const html = new TextEncoder().encode('<!doctype html><p>Maçonnerie</p>'.repeat(500));
		const encoded = encodeOnce(html);
		expect(Buffer.from(brotliDecompressSync(encoded.br)).equals(Buffer.from(html))).toBe(true);
		expect(Buffer.from(gunzipSync(encoded.gzip)).equals(Buffer.from(html))).toBe(true);
		expect(encoded.br.byteLength).toBeLessThan(html.byteLength / 10);
	});

	it('compresses text, JSON and XML, never images; adds Accept-Encoding to Vary once', () => {
		expect(isCompressible('text/html; charset=utf-8')).toBe(true);
		expect(isCompressible('application/json')).toBe(true);
		expect(isCompressible('application/xml; charset=utf-8')).toBe(true);
		expect(isCompressible('image/webp')).toBe(false);
		expect(isCompressible(null)).toBe(false);
		expect(varyOnEncoding(null)).toBe('Accept-Encoding');
		expect(varyOnEncoding('Cookie')).toBe('Cookie, Accept-Encoding');
		expect(varyOnEncoding('accept-encoding')).toBe('accept-encoding');
	});

	it('gives each encoding its own entity tag, and matches If-None-Match by the weak comparison', () => {
		expect(etagOf('"abc"', null)).toBe('"abc"');
		expect(etagOf('"abc"', 'br')).toBe('"abc-br"');
		expect(etagOf('W/"abc"', 'gzip')).toBe('W/"abc-gzip"');
		expect(etagOf(null, 'gzip')).toBeNull();
		expect(etagOf('abc', 'gzip')).toBeNull();
		expect(noneMatch('"abc-br"', '"abc-br"')).toBe(true);
		expect(noneMatch('"x", W/"abc-br"', '"abc-br"')).toBe(true);
		expect(noneMatch('*', '"abc"')).toBe(true);
		expect(noneMatch('"abc"', '"abc-br"')).toBe(false);
		expect(noneMatch('"abc-gzip"', '"abc-br"')).toBe(false);
		expect(noneMatch(null, '"abc"')).toBe(false);
		expect(noneMatch('"abc"', null)).toBe(false);
		expect(
			notModifiedHeaders([
				['etag', '"a"'],
				['content-length', '12'],
				['content-encoding', 'br'],
				['content-type', 'text/html'],
				['cache-control', 'no-cache'],
				['vary', 'Accept-Encoding']
			]).map(([name]) => name)
		).toEqual(['etag', 'content-type', 'cache-control', 'vary']);
	});
});
