/**
 * What every page with image slots loads — its images and its canonical URL — found from the page registry by
 * the requested path, so that a route spells its path nowhere but in its folder name.
 */
import { pages } from '$lib/pages/registry';
import * as images from '../images';
import type { PageImage } from '../images';
import { canonicalUrl } from './seo';

export async function slotPageData(
	path: string
): Promise<{ images: Record<string, PageImage>; canonical: string }> {
	const page = pages.slotPages.find((p) => p.path === path);
	// A route with slots but no registry line is a programming error: fail loudly rather than show no images.
	if (!page) throw new Error(`${path} has no entry with slots in src/lib/pages/registry.ts`);
	return { images: await images.pageImages(page.path), canonical: canonicalUrl(page.path) };
}
