/**
 * MP4 boxes written by hand, for the tests of a video's index (src/lib/server/courses/video-index.ts): a box of any
 * type, an `mvhd` saying a duration, a `ftyp` — so that a test can claim what no encoder would write.
 */

/** A box: its 32-bit size, its type, its content. */
export function box(type: string, content: Uint8Array): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(8 + content.length);
	head.write(type, 4, 'latin1');
	return Buffer.concat([head, content]);
}

/** An `mvhd` of version 0 saying `duration` in `timescale` units. */
export function mvhd(timescale: number, duration: number): Buffer {
	const content = Buffer.alloc(100);
	content.writeUInt32BE(timescale, 12);
	content.writeUInt32BE(duration, 16);
	return box('mvhd', content);
}

export const ftyp = box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2', 'latin1'));

/** `size` bytes of 8-byte `free` boxes: the cheapest file to write and, unbounded, the dearest to read. */
export function tinyBoxes(size: number): Buffer {
	const bytes = Buffer.alloc(size);
	for (let at = 0; at < size; at += 8) {
		bytes.writeUInt32BE(8, at);
		bytes.write('free', at + 4, 'latin1');
	}
	return bytes;
}

/** A file of the given index and media: `ftyp`, `moov` with an `mvhd`, then `rest`. */
export const mp4Claiming = (timescale: number, duration: number, rest: Buffer) =>
	Buffer.concat([ftyp, box('moov', mvhd(timescale, duration)), rest]);
