import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../tests/helpers/fixtures';
import { detectImageType } from './signature';

describe('detectImageType', () => {
	it.each([
		['Landscape_1.jpg', 'image/jpeg'],
		['truncated.png', 'image/png'],
		['Crash_test.gif', 'image/gif'],
		['4.webp', 'image/webp'],
		['pitm.avif', 'image/avif']
	])('recognises %s as %s', (file, type) => {
		expect(detectImageType(readFileSync(fixture(file)).subarray(0, 64))).toBe(type);
	});

	it.each([
		['text', Buffer.from('Bonjour, je ne suis pas une image.')],
		['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
		['RIFF that is not WebP', Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ')],
		['HEIC (ftyp without an AVIF brand)', Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic')],
		['empty', Buffer.alloc(0)]
	])('refuses %s', (_, bytes) => {
		expect(detectImageType(bytes)).toBeNull();
	});
});
