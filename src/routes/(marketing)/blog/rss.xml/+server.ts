import * as content from '$lib/server/content';
import { etagOf, noneMatch, pickEncoding } from '$lib/server/http/compression';
import type { RequestHandler } from './$types';

/**
 * RSS 2.0: the 20 newest published articles, each whole (content/feed.ts), built and compressed once until the
 * next publish. 304 for a reader that holds this document (If-None-Match, or If-Modified-Since the newest publish).
 */
export const GET: RequestHandler = async ({ request }) => {
	const feed = await content.feed();
	const encoding = pickEncoding(request.headers.get('accept-encoding'));
	const etag = etagOf(feed.etag, encoding)!;
	const headers: Record<string, string> = {
		'content-type': 'application/rss+xml; charset=utf-8',
		'cache-control': 'public, max-age=300',
		vary: 'Accept-Encoding',
		etag,
		...(feed.lastModified ? { 'last-modified': feed.lastModified.toUTCString() } : {})
	};
	const ifNoneMatch = request.headers.get('if-none-match');
	const since = Date.parse(request.headers.get('if-modified-since') ?? '');
	const unchanged = ifNoneMatch
		? noneMatch(ifNoneMatch, etag)
		: feed.lastModified !== null &&
			!Number.isNaN(since) &&
			Math.floor(feed.lastModified.getTime() / 1000) * 1000 <= since;
	if (unchanged) return new Response(null, { status: 304, headers });
	if (!encoding) return new Response(feed.xml, { headers });
	return new Response(new Uint8Array(content.encodedFeed(feed, encoding)), {
		headers: { ...headers, 'content-encoding': encoding }
	});
};
