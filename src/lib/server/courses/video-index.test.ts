import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { box, ftyp, mp4Claiming, tinyBoxes } from '../../../../tests/helpers/mp4';
import { MAX_INDEX_BYTES, Mp4BoxScanner, WebmHeadReader, type VideoIndexReader } from './video-index';

const media = (name: string) =>
	readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/media', name));

function read(reader: VideoIndexReader, bytes: Uint8Array, size = 4096) {
	for (let i = 0; i < bytes.length; i += size) reader.push(bytes.subarray(i, i + size));
	return reader.result();
}

describe('a video’s duration, from its own index', () => {
	it('MP4 with and without a sound track, index first or last, in any chunking', () => {
		for (const size of [1, 7, 4096, 1 << 20]) {
			expect(read(new Mp4BoxScanner(), media('lesson.mp4'), size)).toEqual({
				complete: true,
				indexAtEnd: false,
				durationSeconds: 12
			});
		}
		expect(read(new Mp4BoxScanner(), media('index-at-end.mp4'))).toEqual({
			complete: true,
			indexAtEnd: true,
			durationSeconds: 12
		});
		expect(read(new Mp4BoxScanner(), media('silent.mp4')).durationSeconds).toBeCloseTo(24, 1);
	});

	it('WebM with and without a sound track', () => {
		expect(read(new WebmHeadReader(), media('lesson.webm')).durationSeconds).toBeCloseTo(3, 1);
		expect(read(new WebmHeadReader(), media('silent.webm'), 7).durationSeconds).toBeCloseTo(5, 1);
		expect(read(new WebmHeadReader(), media('lesson.mp4')).complete).toBe(false);
	});

	it('says what the file claims, even absurd (the caller bounds it): 4,294,967,294 s', () => {
		const claimed = mp4Claiming(1, 0xfffffffe, box('mdat', Buffer.alloc(16)));
		expect(read(new Mp4BoxScanner(), claimed).durationSeconds).toBe(4_294_967_294);
		// All ones is « unknown », and no track says more: no duration.
		const unknown = mp4Claiming(1000, 0xffffffff, box('mdat', Buffer.alloc(16)));
		expect(read(new Mp4BoxScanner(), unknown).durationSeconds).toBeUndefined();
	});

	it('an index cut short, missing, or larger than the bound is not complete', () => {
		expect(read(new Mp4BoxScanner(), media('truncated.mp4')).complete).toBe(false);
		expect(read(new Mp4BoxScanner(), Buffer.concat([ftyp, box('mdat', Buffer.alloc(64))])).complete).toBe(
			false
		);
		const huge = Buffer.alloc(8);
		huge.writeUInt32BE(MAX_INDEX_BYTES + 100);
		huge.write('moov', 4, 'latin1');
		const scanner = new Mp4BoxScanner();
		scanner.push(Buffer.concat([ftyp, huge]));
		for (let i = 0; i < 5; i++) scanner.push(Buffer.alloc(MAX_INDEX_BYTES / 4));
		expect(scanner.result()).toMatchObject({ complete: false, durationSeconds: undefined });
	});

	it('4 MiB of 8-byte boxes costs at most 3× one 4 MiB box (the audio parser took 11–30×)', () => {
		const size = 4 * 1024 * 1024;
		const hostile = mp4Claiming(1000, 5000, tinyBoxes(size));
		const normal = mp4Claiming(1000, 5000, box('mdat', Buffer.alloc(size - 8)));
		const time = (bytes: Buffer) => {
			let best = Number.POSITIVE_INFINITY;
			for (let round = 0; round < 5; round++) {
				const started = performance.now();
				read(new Mp4BoxScanner(), bytes, 64 * 1024);
				best = Math.min(best, performance.now() - started);
			}
			return best;
		};
		expect(read(new Mp4BoxScanner(), hostile)).toMatchObject({ complete: true, durationSeconds: 5 });
		// The normal file's reading is almost nothing (a few header bytes): the bound is against a floor of 5 ms,
		// what a copy of 4 MiB to storage costs at least, so that the ratio measures the scanner, not the timer.
		expect(time(hostile)).toBeLessThan(3 * Math.max(time(normal), 5));
	});
});
