/**
 * The bundled fallback image of each page with slots, named by the page registry and inlined into the server
 * bundle, so that the site looks whole offline. A registry entry naming a missing file fails at start-up (and
 * in the unit tests), not on the first request that needs it.
 */
import { pages, type SitePage } from '$lib/pages/registry';

const files = import.meta.glob<string>('./fallback/*.webp', {
	eager: true,
	query: '?inline',
	import: 'default'
});

const dataUrlBytes = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

const BUNDLED = new Map<string, Buffer>(
	pages.slotPages.map((page) => {
		const file = files[`./fallback/${page.slots.fallback}`];
		if (!file) throw new Error(`no bundled fallback image ${page.slots.fallback} for ${page.path}`);
		return [page.path, dataUrlBytes(file)];
	})
);

export function bundledFallback(page: SitePage): Buffer {
	return BUNDLED.get(page)!;
}
