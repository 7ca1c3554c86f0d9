/**
 * A video's duration from its own index, read as its bytes go by on their way to storage (issue « Every door
 * holds », point 2): an MP4's `moov` (`mvhd`, or `mehd` for a fragmented file, or its tracks' `mdhd`), a WebM's
 * Segment `Info` (`Duration` × `TimecodeScale`). Nothing else of the file is parsed, so a file without a sound
 * track is a video like any other, and every byte costs the same whatever the boxes are: the readers keep at most
 * the index (MAX_INDEX_BYTES) and look at each top-level box's header once.
 *
 * Before, the duration came from an audio-metadata parser fed the whole file: a silent screen recording had no
 * duration (refused as unreadable), and an MP4 of 8-byte boxes took it 11–30× the time of a normal file.
 */

const MB = 1024 * 1024;

/** The most of an index kept to read it: a two-hour film's `moov` is a few MB. */
export const MAX_INDEX_BYTES = 16 * MB;

/** What the readers find, once the last byte went by. */
export interface VideoIndex {
	/** Seconds, as the file says them (possibly absurd: the caller bounds them); undefined when it says none. */
	durationSeconds: number | undefined;
	/** False when the file is cut short, or its index could not be read whole. */
	complete: boolean;
	/** An MP4 whose index comes after its media (a phone fetches the end before it can play). */
	indexAtEnd: boolean;
}

export interface VideoIndexReader {
	push(chunk: Uint8Array): void;
	result(): VideoIndex;
}

/**
 * Reads the top-level boxes of an MP4 as its bytes go by, holding only the `moov` box: whether the index comes
 * after the media (`mdat`), whether the boxes fill the file exactly (a box that runs past the end is a file cut
 * short), and the duration the index gives.
 */
const uint32 = (bytes: Uint8Array, at: number) =>
	((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;

const MOOV = 0x6d6f6f76;
const MDAT = 0x6d646174;

export class Mp4BoxScanner implements VideoIndexReader {
	private position = 0;
	private nextBox = 0;
	private readonly header = new Uint8Array(16);
	private headerFilled = 0;
	private moovAt = -1;
	private mdatAt = -1;
	private boxes = 0;
	private broken = false;
	/** The `moov` box's content while it goes by, then whole. */
	private index: { bytes: Uint8Array; filled: number } | null = null;
	private indexTooLarge = false;

	push(chunk: Uint8Array): void {
		let offset = 0;
		while (!this.broken && offset < chunk.length) {
			if (this.headerFilled === 0) {
				// Inside a box's content: skip it, keeping it only when it is the index.
				const inBox = Math.min(chunk.length - offset, this.nextBox - this.position);
				if (inBox > 0) {
					this.keepIndex(chunk, offset, inBox);
					offset += inBox;
					this.position += inBox;
					if (offset === chunk.length) return;
				}
			}
			// At a box's start, with its 8-byte header whole in the chunk (a hostile file's million boxes): read there.
			if (this.headerFilled === 0 && offset + 8 <= chunk.length) {
				const size = uint32(chunk, offset);
				if (size !== 1) {
					offset += 8;
					this.position += 8;
					this.startBox(size, uint32(chunk, offset - 4), 8);
					continue;
				}
			}
			// Otherwise gather the header across chunks (16 bytes with a 64-bit size).
			while (offset < chunk.length && this.headerFilled < this.headerLength()) {
				this.header[this.headerFilled++] = chunk[offset++]!;
				this.position++;
			}
			if (this.headerFilled < this.headerLength()) return;
			this.startHeaderBox();
		}
	}

	private keepIndex(chunk: Uint8Array, offset: number, length: number): void {
		const index = this.index;
		if (!index || index.filled === index.bytes.length) return;
		const take = Math.min(length, index.bytes.length - index.filled);
		index.bytes.set(chunk.subarray(offset, offset + take), index.filled);
		index.filled += take;
	}

	private headerLength(): number {
		if (this.headerFilled < 8) return 8;
		return this.size32() === 1 ? 16 : 8;
	}

	private size32(): number {
		return uint32(this.header, 0);
	}

	private startHeaderBox(): void {
		const h = this.header;
		const headerLength = this.headerFilled;
		let size = uint32(h, 0);
		if (size === 1) size = Number(new DataView(h.buffer, 8, 8).getBigUint64(0));
		this.headerFilled = 0;
		this.startBox(size, uint32(h, 4), headerLength);
	}

	/** A box begins, its header just read; `type` as a number: no string made for each of a million boxes. */
	private startBox(size: number, type: number, headerLength: number): void {
		const start = this.position - headerLength;
		this.boxes++;
		if (type === MDAT && this.mdatAt === -1) this.mdatAt = this.boxes;
		if (type === MOOV && this.moovAt === -1) {
			this.moovAt = this.boxes;
			const content = size === 0 ? Number.POSITIVE_INFINITY : size - headerLength;
			if (content > MAX_INDEX_BYTES) this.indexTooLarge = true;
			else if (content >= 0) this.index = { bytes: new Uint8Array(content), filled: 0 };
		}
		if (size === 0) {
			// "to the end of the file": the last box.
			this.nextBox = Number.POSITIVE_INFINITY;
			return;
		}
		if (size < headerLength) {
			this.broken = true;
			return;
		}
		this.nextBox = start + size;
	}

	/** After the last byte. */
	result(): VideoIndex {
		const complete =
			!this.broken &&
			this.headerFilled === 0 &&
			this.moovAt !== -1 &&
			(this.nextBox === this.position || this.nextBox === Number.POSITIVE_INFINITY);
		const index = this.index;
		const whole = !!index && index.filled === index.bytes.length;
		return {
			complete: complete && whole && !this.indexTooLarge,
			indexAtEnd: this.moovAt !== -1 && this.mdatAt !== -1 && this.moovAt > this.mdatAt,
			durationSeconds: whole ? mp4Duration(index.bytes) : undefined
		};
	}
}

/** The children of a box's content: each one's type and content. */
function* children(bytes: Uint8Array): Generator<[string, Uint8Array]> {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let at = 0;
	while (at + 8 <= bytes.length) {
		let size = view.getUint32(at);
		let headerLength = 8;
		if (size === 1) {
			if (at + 16 > bytes.length) return;
			const large = view.getBigUint64(at + 8);
			if (large > BigInt(bytes.length)) return;
			size = Number(large);
			headerLength = 16;
		} else if (size === 0) size = bytes.length - at;
		if (size < headerLength || at + size > bytes.length) return;
		const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
		yield [type, bytes.subarray(at + headerLength, at + size)];
		at += size;
	}
}

const childOf = (bytes: Uint8Array, type: string) => {
	for (const [name, content] of children(bytes)) if (name === type) return content;
	return undefined;
};

/**
 * A full box's (`mvhd`, `mdhd`) timescale and duration: version 0 has 32-bit times, version 1 64-bit ones. A
 * duration of all ones is « unknown ». Null when the box is too short.
 */
function timescaleAndDuration(box: Uint8Array): { timescale: number; duration: number | null } | null {
	const view = new DataView(box.buffer, box.byteOffset, box.byteLength);
	const version = box[0];
	if (version === 1) {
		if (box.length < 32) return null;
		const duration = view.getBigUint64(24);
		return {
			timescale: view.getUint32(20),
			duration: duration === 0xffffffffffffffffn ? null : Number(duration)
		};
	}
	if (box.length < 20) return null;
	const duration = view.getUint32(16);
	return { timescale: view.getUint32(12), duration: duration === 0xffffffff ? null : duration };
}

/** Seconds from the `moov` box's content: `mvhd`, else `mvex/mehd` (fragmented), else the longest track's `mdhd`. */
function mp4Duration(moov: Uint8Array): number | undefined {
	const mvhd = childOf(moov, 'mvhd');
	const movie = mvhd ? timescaleAndDuration(mvhd) : null;
	if (movie?.timescale && movie.duration) return movie.duration / movie.timescale;
	const mehd = childOf(childOf(moov, 'mvex') ?? new Uint8Array(0), 'mehd');
	if (mehd && movie?.timescale) {
		const view = new DataView(mehd.buffer, mehd.byteOffset, mehd.byteLength);
		const fragments =
			mehd[0] === 1 && mehd.length >= 12
				? Number(view.getBigUint64(4))
				: mehd.length >= 8
					? view.getUint32(4)
					: 0;
		if (fragments) return fragments / movie.timescale;
	}
	let longest: number | undefined;
	for (const [type, trak] of children(moov)) {
		if (type !== 'trak') continue;
		const mdhd = childOf(childOf(trak, 'mdia') ?? new Uint8Array(0), 'mdhd');
		const media = mdhd ? timescaleAndDuration(mdhd) : null;
		if (media?.timescale && media.duration)
			longest = Math.max(longest ?? 0, media.duration / media.timescale);
	}
	return longest;
}

/** How much of a WebM's start is kept to find its Segment `Info`, which muxers write before the first Cluster. */
export const WEBM_HEAD_BYTES = 1 * MB;

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

/**
 * A WebM's duration from its Segment `Info`, within its first WEBM_HEAD_BYTES. A WebM has no box to count to the
 * end: it is complete when its head could be read (a browser's MediaRecorder writes no Duration: refused by the
 * caller as a video whose length is unknown).
 */
export class WebmHeadReader implements VideoIndexReader {
	private readonly head = new Uint8Array(WEBM_HEAD_BYTES);
	private filled = 0;

	push(chunk: Uint8Array): void {
		if (this.filled === this.head.length) return;
		const take = Math.min(chunk.length, this.head.length - this.filled);
		this.head.set(chunk.subarray(0, take), this.filled);
		this.filled += take;
	}

	result(): VideoIndex {
		const info = webmInfo(this.head.subarray(0, this.filled));
		return { durationSeconds: info?.durationSeconds, complete: info !== null, indexAtEnd: false };
	}
}

/** An EBML variable-length integer at `at`: its value (the length marker kept for ids) and its length. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number } | null {
	const first = bytes[at];
	if (first === undefined || first === 0) return null;
	const length = Math.clz32(first) - 23;
	if (at + length > bytes.length) return null;
	let value = keepMarker ? first : first & (0xff >> length);
	let allOnes = value === 0xff >> length;
	for (let i = 1; i < length; i++) {
		value = value * 256 + bytes[at + i]!;
		allOnes &&= bytes[at + i] === 0xff;
	}
	// A size of all ones is « unknown » (a live stream's Segment).
	if (!keepMarker && allOnes) return { value: Number.POSITIVE_INFINITY, length };
	return { value, length };
}

/** The elements of `bytes` from `at` to `end`: id, content start and end (end may pass the bytes we have). */
function* elements(bytes: Uint8Array, at: number, end: number): Generator<[number, number, number]> {
	while (at < Math.min(end, bytes.length)) {
		const id = vint(bytes, at, true);
		if (!id) return;
		const size = vint(bytes, at + id.length, false);
		if (!size) return;
		const start = at + id.length + size.length;
		const stop = start + size.value;
		yield [id.value, start, stop];
		if (!Number.isFinite(stop)) return;
		at = stop;
	}
}

function webmInfo(bytes: Uint8Array): { durationSeconds: number | undefined } | null {
	for (const [id, start, end] of elements(bytes, 0, bytes.length)) {
		if (id === EBML_HEADER) continue;
		if (id !== SEGMENT) return null;
		for (const [child, from, to] of elements(bytes, start, end)) {
			if (child === CLUSTER) return { durationSeconds: undefined };
			if (child !== INFO) continue;
			if (to > bytes.length) return null;
			let scale = 1_000_000;
			let duration: number | undefined;
			const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
			for (const [field, at, stop] of elements(bytes, from, to)) {
				const length = stop - at;
				if (field === TIMECODE_SCALE && length >= 1 && length <= 6) {
					scale = 0;
					for (let i = at; i < stop; i++) scale = scale * 256 + bytes[i]!;
				}
				if (field === DURATION && length === 4) duration = view.getFloat32(at);
				if (field === DURATION && length === 8) duration = view.getFloat64(at);
			}
			return { durationSeconds: duration === undefined ? undefined : (duration * scale) / 1e9 };
		}
		return null;
	}
	return null;
}
