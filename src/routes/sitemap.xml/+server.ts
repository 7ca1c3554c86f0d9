import { pages } from '$lib/pages/registry';
import * as system from '$lib/server/system';
import type { RequestHandler } from './$types';

const escapeXml = (text: string) =>
	text.replace(
		/[<>&'"]/g,
		(c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!
	);

/** CONTRACT §3: every indexable page of the current mode, absolute on ORIGIN (the page registry says which). */
export const GET: RequestHandler = () => {
	const origin = system.origin();
	const urls = pages
		.sitemap(system.siteMode())
		.map((entry) => `\t<url><loc>${escapeXml(new URL(entry.path, origin).href)}</loc></url>`);
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
