import { pages } from '$lib/pages/registry';
import * as content from '$lib/server/content';
import { escapeXml } from '$lib/server/xml';
import * as showcase from '$lib/server/showcase';
import * as system from '$lib/server/system';
import type { RequestHandler } from './$types';

/**
 * CONTRACT §3: every indexable page of the current mode, absolute on ORIGIN — the page registry's and the
 * published articles (at their current address, with the day of their last change) in platform mode, the content
 * index's in showcase mode, each with the date its content file says it last changed.
 */
export const GET: RequestHandler = async () => {
	const origin = system.origin();
	const entries: { path: string; lastmod?: string }[] = showcase.isActive()
		? showcase.allPages().filter((p) => p.indexable)
		: await platformPages();
	const urls = entries.map(
		(entry) =>
			`\t<url><loc>${escapeXml(new URL(entry.path, origin).href)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ''}</url>`
	);
	const body = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
		...urls,
		'</urlset>',
		''
	].join('\n');
	return new Response(body, {
		headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' }
	});
};

async function platformPages(): Promise<{ path: string; lastmod?: string }[]> {
	const articles = await content.sitemapArticles();
	const blog = articles.length
		? [
				{
					path: '/blog',
					lastmod: articles
						.map((a) => a.lastmod)
						.sort()
						.at(-1)
				}
			]
		: [];
	return [...pages.sitemap(system.siteMode()), ...blog, ...articles];
}
