/** Where an upload's smaller widths are stored: beside it, `<uuid>.webp` → `<uuid>-w800.webp`. */
import type { ImageWidth } from '$lib/images';

export function variantPath(objectPath: string, width: ImageWidth): string {
	const dot = objectPath.lastIndexOf('.');
	return dot > 0
		? `${objectPath.slice(0, dot)}-w${width}${objectPath.slice(dot)}`
		: `${objectPath}-w${width}`;
}
