import * as content from '$lib/server/content';
import { noneMatch } from '$lib/server/http/compression';
import type { RequestHandler } from './$types';

/**
 * RSS 2.0: the 20 newest published articles, each whole (content/feed.ts). 304 for a reader that holds this
 * document (If-None-Match, or If-Modified-Since the newest publish); compressed by the server's hook like any XML.
 */
export const GET: RequestHandler = async ({ request }) => {
	const feed = await content.feed();
	const headers: Record<string, string> = {
		'content-type': 'application/rss+xml; charset=utf-8',
		'cache-control': 'public, max-age=300',
		etag: feed.etag,
		...(feed.lastModified ? { 'last-modified': feed.lastModified.toUTCString() } : {})
	};
	const ifNoneMatch = request.headers.get('if-none-match');
	const since = Date.parse(request.headers.get('if-modified-since') ?? '');
	const unchanged = ifNoneMatch
		? noneMatch(ifNoneMatch, feed.etag)
		: feed.lastModified !== null &&
			!Number.isNaN(since) &&
			Math.floor(feed.lastModified.getTime() / 1000) * 1000 <= since;
	if (unchanged) return new Response(null, { status: 304, headers });
	return new Response(feed.xml, { headers });
};
