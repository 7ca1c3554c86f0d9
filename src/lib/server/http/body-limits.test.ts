import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../imaging';
import { JSON_BODY_LIMIT } from './api';
import {
	ATTESTATION_FILE_LIMIT,
	COURSE_CHUNK_LIMIT,
	DEFAULT_BODY_LIMIT,
	UPLOAD_BODY_LIMIT,
	UPLOAD_FILE_LIMIT,
	bodyLimit,
	declaredLength,
	payloadTooLarge
} from './body-limits';

describe('bodyLimit', () => {
	it('gives the upload routes room for a 20 MB photo and its multipart envelope', () => {
		expect(bodyLimit('POST', '/api/admin/upload')).toBe(UPLOAD_BODY_LIMIT);
		expect(bodyLimit('POST', '/admin/images?/upload&key=hero')).toBe(UPLOAD_BODY_LIMIT);
		expect(bodyLimit('POST', '/admin/images?key=hero&/upload')).toBe(UPLOAD_BODY_LIMIT);
		expect(bodyLimit('POST', '/admin/cours/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c?/image')).toBe(
			UPLOAD_BODY_LIMIT
		);
		expect(bodyLimit('POST', '/admin/cours?/signature')).toBe(UPLOAD_BODY_LIMIT);
		expect(UPLOAD_BODY_LIMIT).toBeGreaterThan(20 * 1024 * 1024);
		expect(UPLOAD_BODY_LIMIT).toBeLessThanOrEqual(20 * 1024 * 1024 + 64 * 1024);
	});

	it('lets the attestation’s public page take its 2 MB file (checked without JavaScript), and only there', () => {
		const code = 'abcdefghijklmnopqrstuvwxyz';
		expect(bodyLimit('POST', `/attestation/${code}?/file`)).toBe(ATTESTATION_FILE_LIMIT + 64 * 1024);
		for (const target of [`/attestation/${code}`, `/attestation/${code}?/other`, '/attestation/abc?/file'])
			expect(bodyLimit('POST', target)).toBe(DEFAULT_BODY_LIMIT);
	});

	it('gives a course file’s PATCH 16 MB (the editor sends 8 MB), and only a PATCH of an upload id', () => {
		const id = '0123456789abcdef0123456789abcdef';
		expect(bodyLimit('PATCH', `/api/admin/uploads/${id}`)).toBe(COURSE_CHUNK_LIMIT);
		expect(COURSE_CHUNK_LIMIT).toBe(16 * 1024 * 1024);
		for (const [method, target] of [
			['POST', '/api/admin/uploads'],
			['POST', `/api/admin/uploads/${id}`],
			['PATCH', `/api/admin/uploads/${id}/x`],
			['PATCH', `/api/admin/uploads/${id.toUpperCase()}`],
			['PATCH', `/api/admin/uploads/%2e%2e`]
		])
			expect(bodyLimit(method!, target!)).toBe(DEFAULT_BODY_LIMIT);
	});

	it.each([
		['POST', '/login'],
		['POST', '/login?/default'],
		['POST', '/register?redirectTo=/admin'],
		['POST', '/api/contact'],
		['POST', '/api/devis'],
		['POST', '/api/admin/site-images'],
		['PUT', '/api/admin/site-images'],
		['POST', '/admin/images?/url'],
		['POST', '/admin/images?/reset'],
		['POST', '/admin/images'],
		// The upload paths with another method, another spelling or another action get the default.
		['PUT', '/api/admin/upload'],
		['GET', '/api/admin/upload'],
		['POST', '/api/admin/upload/'],
		['POST', '/api/admin/%75pload'],
		['POST', '/API/admin/upload'],
		['POST', '/admin/images?/uploads'],
		['POST', '/admin/cours/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c?/save'],
		['POST', '/admin/cours/3F1C2A4E-8B7D-4C6E-9A1B-2D3E4F5A6B7C?/image'],
		['POST', '/admin/cours/nouveau?/image'],
		['POST', '/admin/cours?/settings'],
		['POST', '/admin/cours?/removeSignature'],
		['POST', '/admin/cours/?/signature'],
		['POST', '/admin/cours/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c/x?/image'],
		['POST', '/admin/images/?/upload'],
		['POST', '/admin/images?upload'],
		['POST', '//api/admin/upload'],
		[undefined, undefined]
	])('gives %s %s the default 64 KB', (method, target) => {
		expect(bodyLimit(method, target)).toBe(DEFAULT_BODY_LIMIT);
	});

	it('is 64 KB by default, and the JSON reader agrees with it', () => {
		expect(DEFAULT_BODY_LIMIT).toBe(64 * 1024);
		expect(JSON_BODY_LIMIT).toBe(DEFAULT_BODY_LIMIT);
	});

	it('fits the image pipeline’s own limit on the file', () => {
		expect(UPLOAD_FILE_LIMIT).toBe(MAX_UPLOAD_BYTES);
	});
});

describe('declaredLength', () => {
	it.each([
		['0', 0],
		['65536', 65536],
		[' 12 ', 12],
		[undefined, null],
		[null, null],
		['', null],
		['-1', null],
		['1e9', null],
		['12, 12', null],
		['0x10', null]
	])('reads %j as %j', (header, expected) => {
		expect(declaredLength(header)).toBe(expected);
	});
});

describe('payloadTooLarge', () => {
	it('is a French 413 problem that closes the connection', () => {
		const answer = payloadTooLarge(DEFAULT_BODY_LIMIT);
		expect(answer.status).toBe(413);
		expect(answer.headers['content-type']).toBe('application/problem+json');
		expect(answer.headers.connection).toBe('close');
		expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
		expect(JSON.parse(answer.body)).toEqual({
			type: 'about:blank',
			title: 'Contenu trop volumineux',
			status: 413,
			detail: 'Le contenu envoyé dépasse la taille permise pour cette adresse (64 Ko).'
		});
		expect(JSON.parse(payloadTooLarge(UPLOAD_BODY_LIMIT).body).detail).toContain('(20 Mo)');
	});
});
