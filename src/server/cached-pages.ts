/**
 * The fast path for cached pages: an anonymous GET of `/`, `/macon` or `/paysagiste` whose page is in the cache
 * and fresh is answered here, without entering SvelteKit — same bytes, same headers, the full security headers.
 * Anything else (a session cookie, a query string, a stale or missing page) goes to SvelteKit, which renders,
 * refreshes and counts MISS/STALE.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../lib/server/config';
import { scriptSrcFrom, securityHeaders } from '../lib/server/http/security-headers';
import { CACHED_PATHS, PAGE_CACHE_KEY, type CachedPage, type PageCache } from '../lib/server/pages/cache';

export function cachedPageAnswerer(config: Config) {
	const sessionCookie = new RegExp(
		`(?:^|;\\s*)${config.origin.protocol === 'https:' ? '__Host-session' : 'session'}=`
	);
	// Final headers per cached page, computed once per page version.
	const prepared = new WeakMap<CachedPage, [string, string][]>();

	const headersOf = (page: CachedPage): [string, string][] => {
		let headers = prepared.get(page);
		if (!headers) {
			const merged = new Map(page.headers);
			const scriptSrc = scriptSrcFrom(merged.get('content-security-policy') ?? null) ?? undefined;
			for (const [name, value] of Object.entries(securityHeaders(config, scriptSrc)))
				if (value) merged.set(name, value);
			merged.set('x-page-cache', 'HIT');
			merged.set('cache-control', 'no-cache');
			merged.set('content-length', String(page.body.byteLength));
			headers = [...merged];
			prepared.set(page, headers);
		}
		return headers;
	};

	/** Answers the request and returns true when it is a fresh cached page; false to let SvelteKit handle it. */
	return (req: IncomingMessage, res: ServerResponse): boolean => {
		if (req.method !== 'GET' && req.method !== 'HEAD') return false;
		// An odd GET with a body goes the long way, where its early answer closes the connection.
		if (Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding']) return false;
		const path = req.url ?? '';
		if (!CACHED_PATHS.has(path)) return false;
		if (req.headers.cookie && sessionCookie.test(req.headers.cookie)) return false;
		const cache = (globalThis as unknown as Record<symbol, PageCache | undefined>)[PAGE_CACHE_KEY];
		const page = cache?.fresh(path);
		if (!page) return false;
		res.writeHead(page.status, headersOf(page));
		res.end(req.method === 'HEAD' ? undefined : page.body);
		return true;
	};
}
