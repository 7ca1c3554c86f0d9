import { company } from '$lib/company';
import * as content from '$lib/server/content';
import { escapeXml } from '$lib/server/xml';
import type { RequestHandler } from './$types';

/** RSS 2.0: the 20 newest published articles, each with its whole text (HTML, escaped as the format asks). */
export const GET: RequestHandler = async () => {
	const items = await content.feed();
	const blog = content.canonicalUrl('/blog');
	const newest = items[0]?.updatedAt;
	const body = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
		'<channel>',
		`<title>${escapeXml(`Le blog — ${company.brand}`)}</title>`,
		`<link>${escapeXml(blog)}</link>`,
		`<atom:link href="${escapeXml(content.canonicalUrl('/blog/rss.xml'))}" rel="self" type="application/rss+xml"/>`,
		`<description>${escapeXml(`Les articles de ${company.brand} : conseils aux artisans.`)}</description>`,
		'<language>fr-FR</language>',
		...(newest ? [`<lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>`] : []),
		...items.map((item) => {
			const link = content.canonicalUrl(item.path);
			return [
				'<item>',
				`<title>${escapeXml(item.title)}</title>`,
				`<link>${escapeXml(link)}</link>`,
				`<guid isPermaLink="true">${escapeXml(link)}</guid>`,
				`<pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate>`,
				`<description>${escapeXml(item.description)}</description>`,
				'</item>'
			].join('');
		}),
		'</channel>',
		'</rss>',
		''
	].join('\n');
	return new Response(body, {
		headers: { 'content-type': 'application/rss+xml; charset=utf-8', 'cache-control': 'public, max-age=300' }
	});
};
