import * as system from '$lib/server/system';
import type { RequestHandler } from './$types';

/** CONTRACT §3: both modes keep crawlers out of the API; the platform also out of the admin. */
export const GET: RequestHandler = () => {
	const sitemap = new URL('/sitemap.xml', system.origin()).href;
	const rules =
		system.siteMode() === 'showcase'
			? ['User-agent: *', 'Allow: /', 'Disallow: /api/']
			: ['User-agent: *', 'Disallow: /api/', 'Disallow: /admin'];
	return new Response(`${[...rules, '', `Sitemap: ${sitemap}`].join('\n')}\n`, {
		headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' }
	});
};
