/**
 * The widths every managed image is offered in (issue "Experience", point 1): made at upload for stored images,
 * asked of the stock host through its own width parameter for external ones, and served by the proxy as
 * `/api/img/{key}?v=…&w=800`. A phone's hero takes 800 (a 412 px screen at 1.75×), a desktop's 1600.
 * Client-safe: pages build `srcset` from it; the proxy refuses any other width (no cache key per pixel).
 */
export const IMAGE_WIDTHS = [480, 800, 1200, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** A managed image as a page renders it (PageImg.svelte): its proxy URL, its words and its box. */
export interface PageImage {
	src: string;
	alt: string;
	/** The slot's box: reserves the space. */
	width: number;
	height: number;
	/** The photo's own width: `srcset` offers no width above it. */
	sourceWidth: number;
}

export const isImageWidth = (value: number): value is ImageWidth =>
	(IMAGE_WIDTHS as readonly number[]).includes(value);

/** The widths worth offering for an image displayed at most `fullWidth` px wide (the full size excluded). */
export const widthsBelow = (fullWidth: number): ImageWidth[] => IMAGE_WIDTHS.filter((w) => w < fullWidth);

/** `src?v=1&w=480 480w, …, src?v=1 1600w`: each width through the proxy, the full image last. */
export function srcsetOf(src: string, fullWidth: number): string {
	const join = src.includes('?') ? '&' : '?';
	return [...widthsBelow(fullWidth).map((w) => `${src}${join}w=${w} ${w}w`), `${src} ${fullWidth}w`].join(
		', '
	);
}

/**
 * The value of a photo the upload pipeline stored (`storage:<uuid>.webp`: its bytes checked, turned, stripped and
 * re-encoded): the only stored object a cover or a site photo may name. Anything else of the private bucket — an
 * attestation, a signature, a course file — would be published by the page that shows it.
 */
export const PHOTO_VALUE = /^storage:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;
