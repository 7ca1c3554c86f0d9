/**
 * The business's photos (src/content/showcase/photos/*.jpg), made at build time by @sveltejs/enhanced-img into
 * AVIF, WebP and JPEG at three widths, each with its intrinsic width and height (no layout shift). Content files
 * name a photo by its file name; a business replaces a photo by dropping its own file under the same name.
 */
import type { Picture } from '@sveltejs/enhanced-img';

const pictures = import.meta.glob<Picture>('/src/content/showcase/photos/*.jpg', {
	eager: true,
	import: 'default',
	query: { enhanced: true, w: '1280;800;480' }
});

const byFile = new Map(Object.entries(pictures).map(([file, picture]) => [file.split('/').pop()!, picture]));

export function photo(file: string): Picture {
	const picture = byFile.get(file);
	// The content index checks every name against the folder (content.test.ts); this is the last guard.
	if (!picture) throw new Error(`no photo ${file} in src/content/showcase/photos`);
	return picture;
}

/** The largest JPEG of a photo, for Open Graph and JSON-LD (an absolute URL is made from it by the page). */
export const largestJpeg = (file: string): string => photo(file).img.src;
