import * as images from '$lib/server/images';
import type { RequestEvent } from '@sveltejs/kit';
import { demoSite, type DemoId } from '$lib/content/pages';
import * as content from '$lib/server/content';

/** A demo site's page: its entry's words (live, or the draft in an admin's preview) and its slots' photos. */
export async function demoPageData(id: DemoId, { url, locals, setHeaders }: RequestEvent) {
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	const [fields, slots] = await Promise.all([content.page(id, preview), images.slotPageData(url.pathname)]);
	return { site: demoSite(id, fields, fields.html), ...slots };
}
