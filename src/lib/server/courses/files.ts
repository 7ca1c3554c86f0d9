/**
 * What a course file may be (issue "Learning, part 2"): each kind an admin uploads, the types it accepts — known
 * by the file's first bytes, never by its name or a declared type — and how large it may be. Pure: the upload
 * store (uploads.ts) and the modules' rules (service.ts) apply them.
 */
import { decimal } from '$lib/format';
import { COURSE_FILE_VALUE } from '$lib/schemas/modules';
import { detectImageType, type AcceptedType } from '../imaging';

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

export const formatMegabytes = (bytes: number) => `${decimal(bytes / MB, bytes < 10 * MB ? 1 : 0)} Mo`;
