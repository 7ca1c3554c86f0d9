/**
 * The image proxy's URL, `/api/img/<key>[?w=<width>][&v=<version>]`, as the server entry's answer reads it
 * (entry-answer.ts): taken apart once per URL and remembered, since a site's pages ask the same few dozen.
 */
import { isImageWidth, type ImageWidth } from '$lib/images';
import { IMAGE_PROXY_PREFIX } from '../http/image-proxy-bridge';

/**
 * URLs parsed lately: a site's pages ask the same few dozen. Bounded in number and length (a page's are under a
 * hundred characters; a client's may be 16 KB), and dropped whole when full, since any client may ask anything.
 */
const parsedUrls = new Map<string, ParsedUrl | null>();
const MAX_PARSED_URLS = 1024;
const MAX_REMEMBERED_URL_LENGTH = 200;

export function parseProxyUrl(url: string): ParsedUrl | null {
	if (url.length > MAX_REMEMBERED_URL_LENGTH) return parse(url);
	let parsed = parsedUrls.get(url);
	if (parsed === undefined) {
		if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
		parsedUrls.set(url, (parsed = parse(url)));
	}
	return parsed;
}

/**
 * A proxy URL taken apart, and — remembered with it (parseProxyUrl) — the object path it last resolved to and the
 * slot's value that path is of: the same URL with the same value names the same object.
 */
export interface ParsedUrl {
	key: string;
	width: ImageWidth | null;
	version: string | null;
	pathFor: string | null;
	path: string | null;
}

/** `{ key, width, version }` of `/api/img/<key>[?w=<width>][&v=<version>]`; null for anything else (the route's). */
function parse(url: string): ParsedUrl | null {
	const query = url.indexOf('?');
	const key = url.slice(IMAGE_PROXY_PREFIX.length, query === -1 ? undefined : query);
	if (!/^[a-z0-9-]{1,64}$/.test(key)) return null;
	let width: ImageWidth | null = null;
	let version: string | null = null;
	if (query !== -1) {
		for (const pair of url.slice(query + 1).split('&')) {
			const [name, text = ''] = pair.split('=', 2) as [string, string?];
			const asWidth = Number(text);
			if (name === 'w' && width === null && /^\d{3,4}$/.test(text) && isImageWidth(asWidth)) width = asWidth;
			else if (name === 'v' && version === null && /^[\w-]{1,32}$/.test(text)) version = text;
			else return null;
		}
	}
	return { key, width, version, pathFor: null, path: null };
}
