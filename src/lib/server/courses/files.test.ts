import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { courseFilePathOf, sniff, SNIFF_BYTES } from './files';
import { Mp4BoxScanner } from './video-index';

const media = (name: string) =>
	readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/media', name));
const head = (bytes: Uint8Array) => bytes.subarray(0, SNIFF_BYTES);

/** The scanner fed in chunks of `size` bytes, as a stream would. */
function scan(bytes: Uint8Array, size: number) {
	const scanner = new Mp4BoxScanner();
	for (let i = 0; i < bytes.length; i += size) scanner.push(bytes.subarray(i, i + size));
	const { complete, indexAtEnd } = scanner.result();
	return { complete, indexAtEnd };
}

describe('a course file’s kind, by its first bytes', () => {
	it('knows MP4, WebM, WebVTT, PDF and the poster’s image types', () => {
		expect(sniff('video', head(media('lesson.mp4')))?.contentType).toBe('video/mp4');
		expect(sniff('video', head(media('lesson.webm')))?.contentType).toBe('video/webm');
		expect(sniff('captions', head(media('lesson.vtt')))?.extension).toBe('vtt');
		expect(sniff('attachment', head(media('fiche.pdf')))?.contentType).toBe('application/pdf');
		const jpeg = readFileSync(
			path.resolve(import.meta.dirname, '../../../../tests/fixtures/images/Landscape_1.jpg')
		);
		expect(sniff('poster', head(jpeg))).toMatchObject({ contentType: 'image/webp', imageType: 'image/jpeg' });
	});

	it('refuses what a name or a declared type would have let through', () => {
		const elf = Buffer.from('\x7fELF\x02\x01\x01\x00' + '\0'.repeat(56), 'latin1');
		const exe = Buffer.from('MZ\x90\x00' + '\0'.repeat(60), 'latin1');
		for (const kind of ['video', 'captions', 'attachment', 'poster'] as const) {
			expect(sniff(kind, elf)).toBeNull();
			expect(sniff(kind, exe)).toBeNull();
		}
		// A QuickTime .mov is not an MP4, a PDF is no video, a video is no worksheet.
		const mov = Buffer.concat([Buffer.from([0, 0, 0, 20]), Buffer.from('ftypqt  '), Buffer.alloc(52)]);
		expect(sniff('video', mov)).toBeNull();
		expect(sniff('video', head(media('fiche.pdf')))).toBeNull();
		expect(sniff('attachment', head(media('lesson.mp4')))).toBeNull();
		expect(sniff('captions', Buffer.from('WEBVTTX'))).toBeNull();
		expect(sniff('captions', Buffer.from('WEBVTT'))).not.toBeNull();
		expect(sniff('video', new Uint8Array(0))).toBeNull();
	});
});

describe('an MP4’s top-level boxes, read as the bytes go by', () => {
	it('a faststart file: complete, index first — in any chunking', () => {
		for (const size of [1, 7, 8, 1000, 1 << 20])
			expect(scan(media('lesson.mp4'), size)).toEqual({ complete: true, indexAtEnd: false });
	});

	it('a file whose index follows the media is flagged', () => {
		expect(scan(media('index-at-end.mp4'), 4096)).toEqual({ complete: true, indexAtEnd: true });
	});

	it('a file cut short, or with bytes past its last box, is not complete', () => {
		expect(scan(media('truncated.mp4'), 4096).complete).toBe(false);
		expect(scan(media('lesson.mp4').subarray(0, 20), 4096).complete).toBe(false);
		expect(scan(Buffer.concat([media('lesson.mp4'), Buffer.from([0, 0, 0])]), 4096).complete).toBe(false);
	});
});

describe('a course file’s value', () => {
	it('is storage:course/<uuid>.<known extension>, nothing else', () => {
		const id = '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';
		expect(courseFilePathOf(`storage:course/${id}.mp4`)).toBe(`course/${id}.mp4`);
		for (const forged of [
			`storage:${id}.webp`,
			`storage:course/../${id}.mp4`,
			`storage:course/${id}.exe`,
			`storage:uploads/${id}.mp4`,
			`https://example.com/course/${id}.mp4`,
			`storage:course/${id}.mp4\0`
		])
			expect(courseFilePathOf(forged)).toBeNull();
	});
});
