/**
 * What a course file may be (issue "Learning, part 2"): each kind an admin uploads, the types it accepts — known
 * by the file's first bytes, never by its name or a declared type — and how large it may be. Pure: the upload
 * store (uploads.ts) and the modules' rules (service.ts) apply them.
 */
import { COURSE_FILE_VALUE } from '$lib/schemas/modules';
import type { AcceptedType } from '../images/signature';
import { detectImageType } from '../images/signature';

export const COURSE_FILE_KINDS = ['video', 'captions', 'poster', 'attachment'] as const;
export type CourseFileKind = (typeof COURSE_FILE_KINDS)[number];

export const isCourseFileKind = (value: unknown): value is CourseFileKind =>
	typeof value === 'string' && (COURSE_FILE_KINDS as readonly string[]).includes(value);

/** Course files live under this folder of the private bucket; a module names only these. */
export const COURSE_FOLDER = 'course/';

/** A course file's path from its `storage:` value (the modules schema's one pattern), or null for any other value. */
export const courseFilePathOf = (value: string): string | null =>
	COURSE_FILE_VALUE.test(value) ? value.slice('storage:'.length) : null;

export interface SniffedType {
	contentType: string;
	extension: string;
	/** In French, for messages: « une vidéo MP4 ». */
	label: string;
}

const MP4: SniffedType = { contentType: 'video/mp4', extension: 'mp4', label: 'une vidéo MP4' };
const WEBM: SniffedType = { contentType: 'video/webm', extension: 'webm', label: 'une vidéo WebM' };
const VTT: SniffedType = {
	contentType: 'text/vtt; charset=utf-8',
	extension: 'vtt',
	label: 'des sous-titres WebVTT'
};
const PDF: SniffedType = { contentType: 'application/pdf', extension: 'pdf', label: 'un PDF' };
/** The poster goes through the image pipeline: it is stored as WebP whatever it came as. */
const POSTER: SniffedType = { contentType: 'image/webp', extension: 'webp', label: 'une image' };

const ascii = (bytes: Uint8Array, from: number, to: number) =>
	String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));

/**
 * MP4 (ISO base media): a first box `ftyp` whose brand is an MP4 one. QuickTime's own brand (`qt  `, .mov) is
 * refused: browsers other than Safari do not all play it.
 */
function isMp4(bytes: Uint8Array): boolean {
	if (ascii(bytes, 4, 8) !== 'ftyp') return false;
	const brand = ascii(bytes, 8, 12);
	return brand !== 'qt  ' && /^[\x20-\x7e]{4}$/.test(brand);
}

/** WebM: an EBML header (1A 45 DF A3) whose DocType, within its first bytes, says `webm`. */
function isWebm(bytes: Uint8Array): boolean {
	if (bytes[0] !== 0x1a || bytes[1] !== 0x45 || bytes[2] !== 0xdf || bytes[3] !== 0xa3) return false;
	return ascii(bytes, 4, 64).includes('webm');
}

/** WebVTT: « WEBVTT » (after an optional BOM), then a space, a tab, a line break or the end. */
function isWebVtt(bytes: Uint8Array): boolean {
	const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	if (ascii(bytes, start, start + 6) !== 'WEBVTT') return false;
	const next = bytes[start + 6];
	return next === undefined || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

const isPdf = (bytes: Uint8Array) => ascii(bytes, 0, 5) === '%PDF-';

/** How many first bytes `sniff` needs. */
export const SNIFF_BYTES = 64;

/**
 * What a file of `kind` is, by its first bytes; null when it is not a type that kind accepts. For a poster, the
 * image type the pipeline is to decode.
 */
export function sniff(
	kind: CourseFileKind,
	bytes: Uint8Array
): (SniffedType & { imageType?: AcceptedType }) | null {
	switch (kind) {
		case 'video':
			return isMp4(bytes) ? MP4 : isWebm(bytes) ? WEBM : null;
		case 'captions':
			return isWebVtt(bytes) ? VTT : null;
		case 'attachment':
			return isPdf(bytes) ? PDF : null;
		case 'poster': {
			const imageType = detectImageType(bytes);
			return imageType ? { ...POSTER, imageType } : null;
		}
	}
}

/** What each kind accepts, said to the admin when a file is refused. */
export const ACCEPTED_LABEL: Record<CourseFileKind, string> = {
	video: 'une vidéo MP4 (H.264/AAC) ou WebM',
	captions: 'des sous-titres WebVTT (.vtt)',
	poster: 'une image JPEG, PNG, GIF, WebP ou AVIF',
	attachment: 'un PDF'
};

export const KIND_LABEL: Record<CourseFileKind, string> = {
	video: 'La vidéo',
	captions: 'Les sous-titres',
	poster: 'L’affiche',
	attachment: 'La pièce jointe'
};

const MB = 1024 * 1024;

/** The largest file of each kind, in bytes; the video's is COURSE_VIDEO_MAX_MB. */
export function maxBytesOf(kind: CourseFileKind, videoMaxBytes: number): number {
	switch (kind) {
		case 'video':
			return videoMaxBytes;
		case 'captions':
			return 2 * MB;
		case 'poster':
			return 20 * MB;
		case 'attachment':
			return 200 * MB;
	}
}

export const formatMegabytes = (bytes: number) =>
	`${(bytes / MB).toLocaleString('fr-FR', { maximumFractionDigits: bytes < 10 * MB ? 1 : 0 })} Mo`;

/**
 * Reads the top-level boxes of an MP4 as its bytes go by, without holding them: whether the index (`moov`) comes
 * after the media (`mdat`) — a phone then fetches the end before it can play — and whether the boxes fill the
 * file exactly (a box that runs past the end is a file cut short).
 */
export class Mp4BoxScanner {
	private position = 0;
	private nextBox = 0;
	private header: number[] = [];
	private readonly order: string[] = [];
	private broken = false;

	push(chunk: Uint8Array): void {
		let offset = 0;
		while (!this.broken && offset < chunk.length) {
			if (this.header.length === 0) {
				const remaining = chunk.length - offset;
				if (this.position + remaining <= this.nextBox) {
					this.position += remaining;
					return;
				}
				if (this.position < this.nextBox) {
					offset += this.nextBox - this.position;
					this.position = this.nextBox;
				}
			}
			// At a box's start: gather its 8-byte header (16 with a 64-bit size).
			while (offset < chunk.length && this.header.length < this.headerLength()) {
				this.header.push(chunk[offset++]!);
				this.position++;
			}
			if (this.header.length < this.headerLength()) return;
			this.startBox();
		}
	}

	private headerLength(): number {
		if (this.header.length < 8) return 8;
		return this.size32() === 1 ? 16 : 8;
	}

	private size32(): number {
		const h = this.header;
		return ((h[0]! << 24) >>> 0) + (h[1]! << 16) + (h[2]! << 8) + h[3]!;
	}

	private startBox(): void {
		const h = this.header;
		const type = String.fromCharCode(h[4]!, h[5]!, h[6]!, h[7]!);
		let size = this.size32();
		if (size === 1) size = Number(new DataView(Uint8Array.from(h).buffer).getBigUint64(8));
		const start = this.position - h.length;
		this.header = [];
		this.order.push(type);
		if (size === 0) {
			// "to the end of the file": the last box.
			this.nextBox = Number.POSITIVE_INFINITY;
			return;
		}
		if (size < h.length) {
			this.broken = true;
			return;
		}
		this.nextBox = start + size;
	}

	/** After the last byte: `complete` when the boxes end exactly where the file does. */
	result(): { complete: boolean; indexAtEnd: boolean } {
		const moov = this.order.indexOf('moov');
		const mdat = this.order.indexOf('mdat');
		const complete =
			!this.broken &&
			this.header.length === 0 &&
			moov !== -1 &&
			(this.nextBox === this.position || this.nextBox === Number.POSITIVE_INFINITY);
		return { complete, indexAtEnd: moov !== -1 && mdat !== -1 && moov > mdat };
	}
}
