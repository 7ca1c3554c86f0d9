/**
 * Where an image's smaller widths are stored: beside it, `<uuid>.webp` → `<uuid>-w800.webp` (the site's uploads and
 * the course's posters alike), and back.
 */
import { isImageWidth, type ImageWidth } from '$lib/images';

export function variantPath(objectPath: string, width: ImageWidth): string {
	const dot = objectPath.lastIndexOf('.');
	return dot > 0
		? `${objectPath.slice(0, dot)}-w${width}${objectPath.slice(dot)}`
		: `${objectPath}-w${width}`;
}

/** The image a variant path is a width of, and that width; null for a path that names no variant. */
export function variantOf(objectPath: string): { objectPath: string; width: ImageWidth } | null {
	const match = /^(.+)-w(\d{3,4})(\.webp)$/.exec(objectPath);
	const width = Number(match?.[2]);
	return match && isImageWidth(width) ? { objectPath: `${match[1]}${match[3]}`, width } : null;
}
