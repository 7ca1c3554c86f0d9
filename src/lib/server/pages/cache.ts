/**
 * The page cache (CONTRACT §4) of the pages the registry marks `cacheSeconds` (src/lib/pages/registry.ts) — and,
 * in showcase mode, of the content index's pages (hooks.server.ts passes that policy in): each page's full HTML
 * is kept in memory per instance, fresh for its own duration; then one request is served the
 * stale copy while a single regeneration runs in the background (no stampede). `purge(path)` drops a page on this
 * instance and, through PostgreSQL NOTIFY, on every other instance sharing the database. Signed-in visitors never
 * read or fill it (cached HTML holds nobody's data).
 *
 * Two entries, one per bundle:
 * - `handle`, in hooks.server.ts: serves HIT/MISS/STALE from SvelteKit, renders and fills the cache.
 * - `nodeFastPath(config)`, in the server entry (src/server/index.ts): answers a fresh HIT before SvelteKit runs.
 *
 * How state is shared: build/server.js is bundled by esbuild separately from SvelteKit's output, so this module
 * is loaded twice in one process and every module-level variable (`pageCache`, the purge notifier) exists twice.
 * The two copies share the PageCache instance only through a process-wide slot (process-wide.js), which the
 * app sets at start-up (`exposePageCache`); the fast path reads the cache from there and nothing else: it answers
 * only what the app's handle chose to store, so which pages are cached in which mode is decided in one place.
 * Anything else the fast path needs comes from dependency-free modules (the cookie name, the security headers)
 * and from the configuration the server entry loaded and passes in — never from the database or the app's lazy
 * `config` singleton, which only `handle` reads.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handle } from '@sveltejs/kit';
import type postgres from 'postgres';
import { pages as registry, type PageRegistry } from '$lib/pages/registry';
import { hasSessionCookie, sessionCookieName } from '../http/session-cookie-name';
import {
	encodeOnce,
	etagOf,
	noneMatch,
	notModifiedHeaders,
	pickEncoding,
	varyOnEncoding,
	type Encoded,
	type Encoding
} from '../http/compression';
import type { Config } from '../config';
import { REQUEST_ID_HEADER } from '../http/request-log';
import { scriptSrcFrom, securityHeaders } from '../http/security-headers';
import { log } from '../log';
import { recordPageCache } from '../metrics';
import { processWide } from '../../process-wide';

const CHANNEL = 'atelier_page_purge';

export interface CachedPage {
	status: number;
	headers: [string, string][];
	body: Uint8Array<ArrayBuffer>;
	createdAt: number;
	/** How long this copy stays fresh; absent: the cache's own rule for its path. */
	freshMs?: number;
	/** The body in Brotli and gzip, made once when the page entered the cache. */
	encoded?: Encoded;
}

/**
 * The bytes to send of a cached page, in the encoding the client accepts (identity when none), with the entity tag
 * of that representation (each encoding its own: RFC 9110 §8.8.3).
 */
function variantOf(
	page: CachedPage,
	encoding: Encoding | null
): { body: Uint8Array; encoding: Encoding | null; etag: string | null } {
	const encoded = encoding && page.encoded?.[encoding];
	const chosen = encoded ? encoding : null;
	return { body: encoded || page.body, encoding: chosen, etag: tagsOf(page)[chosen ?? 'identity'] };
}

/** Each cached page's tag per encoding, made once from the one it was rendered with. */
const tags = new WeakMap<CachedPage, Record<Encoding | 'identity', string | null>>();
function tagsOf(page: CachedPage) {
	let known = tags.get(page);
	if (!known) {
		const etag = page.headers.find(([name]) => name === 'etag')?.[1] ?? null;
		known = { identity: etag, br: etagOf(etag, 'br'), gzip: etagOf(etag, 'gzip') };
		tags.set(page, known);
	}
	return known;
}

export type CacheState = 'HIT' | 'MISS' | 'STALE';

type Listener = (path: string) => void;

export class PageCache {
	private readonly entries = new Map<string, CachedPage>();
	/** Bumped by every purge: a render that began before a purge must not store what it rendered. */
	private readonly generations = new Map<string, number>();
	private readonly rendering = new Map<string, Promise<CachedPage | null>>();
	private readonly listeners = new Set<Listener>();

	private readonly freshMsOf: (path: string) => number;

	/** `freshMs`: one duration for every path, or each path's own (the registry's, by default). */
	constructor(
		freshMs: number | ((path: string) => number) = registry.freshMs,
		private readonly now: () => number = Date.now
	) {
		this.freshMsOf = typeof freshMs === 'number' ? () => freshMs : freshMs;
	}

	onPurge(listener: Listener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/**
	 * A change another instance announced for a path this cache never holds (a page rendered on every request, an
	 * article): nothing to drop here, but what is kept beside the cache (the site's words) must hear it.
	 */
	heard(path: string): void {
		for (const listener of this.listeners) listener(path);
	}

	/** Drops a page here; `purge()` below also tells the other instances. */
	purgeLocal(path: string): void {
		this.entries.delete(path);
		this.generations.set(path, (this.generations.get(path) ?? 0) + 1);
		for (const listener of this.listeners) listener(path);
	}

	/**
	 * Serves `path` from the cache, rendering it with `render` when missing (MISS) or stale (STALE, in the
	 * background). Concurrent requests share one render. `render` returns null for answers not worth keeping.
	 */
	async serve(
		path: string,
		render: () => Promise<CachedPage | null>
	): Promise<{ state: CacheState; page: CachedPage | null }> {
		const entry = this.entries.get(path);
		if (entry && this.isFresh(path, entry)) return { state: 'HIT', page: entry };
		if (entry) {
			void this.renderOnce(path, render).catch((error) =>
				log.error('page regeneration failed', { path, error })
			);
			return { state: 'STALE', page: entry };
		}
		return { state: 'MISS', page: await this.renderOnce(path, render) };
	}

	private renderOnce(path: string, render: () => Promise<CachedPage | null>): Promise<CachedPage | null> {
		const running = this.rendering.get(path);
		if (running) return running;
		const generation = this.generations.get(path) ?? 0;
		const task = render()
			.then((page) => {
				if (page && (this.generations.get(path) ?? 0) === generation) this.entries.set(path, page);
				return page;
			})
			.finally(() => this.rendering.delete(path));
		this.rendering.set(path, task);
		return task;
	}

	/** The page when it is in the cache and fresh; never renders. */
	fresh(path: string): CachedPage | null {
		const entry = this.entries.get(path);
		return entry && this.isFresh(path, entry) ? entry : null;
	}

	private isFresh(path: string, entry: CachedPage): boolean {
		return this.now() - entry.createdAt < (entry.freshMs ?? this.freshMsOf(path));
	}

	get size(): number {
		return this.entries.size;
	}
}

export const pageCache = new PageCache();

/** The one link between the two bundles (see the header): the app's PageCache, shared process-wide. */
const sharedPageCache = processWide<PageCache>('page-cache');

/** Called once by the app at start-up (not on import: the server entry's bundle imports this module too). */
export function exposePageCache(): void {
	sharedPageCache.set(pageCache);
}

const exposedPageCache = () => sharedPageCache.get();

let notifier: postgres.Sql | null = null;

/**
 * Listens for purges made by other instances. postgres.js re-establishes the LISTEN after a dropped
 * connection; on PGlite (one process) purges stay in-process.
 */
let purgeListened = false;

export async function startPurgeListener(client: postgres.Sql | null): Promise<void> {
	if (!client) return;
	notifier = client;
	await client.listen(
		CHANNEL,
		(path) => {
			if (registry.cachedPaths().has(path)) pageCache.purgeLocal(path);
			else pageCache.heard(path);
		},
		() => {
			// Called again at each attempt to listen after an outage: said once, then only at debug.
			(purgeListened ? log.debug : log.info)('listening for page purges', { channel: CHANNEL });
			purgeListened = true;
		}
	);
}

export function onPurge(listener: Listener): () => void {
	return pageCache.onPurge(listener);
}

/** Drops a page on every instance before returning (and tells what is kept beside the cache that it changed). */
export async function purge(path: string): Promise<void> {
	if (registry.cachedPaths().has(path)) pageCache.purgeLocal(path);
	else pageCache.heard(path);
	if (notifier) await notifier.notify(CHANNEL, path);
}

/**
 * Tells every running instance that every cached page changed — from outside a server (`npm run restore` on a
 * database the instances share): each drops its copies and reads the site's words again.
 */
export async function announceEverythingChanged(client: postgres.Sql): Promise<void> {
	for (const path of registry.cachedPaths()) await client.notify(CHANNEL, path);
}

type Answer = (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean;

/**
 * The fast path, for the server entry: an anonymous GET or HEAD of a cached page (no query string) whose copy
 * is in the cache and fresh is answered here, without entering SvelteKit — same bytes, same headers, the full
 * security headers. Anything else (a session cookie, a query string, a stale or missing page) goes to
 * SvelteKit, which renders, refreshes and counts MISS/STALE. Returns true when it answered.
 */
export function nodeFastPath(config: Config, cache: () => PageCache | undefined = exposedPageCache): Answer {
	// Final heads per cached page and encoding, computed once per page version: a flat [name, value, …] list whose
	// last value is the request's id, which writeHead reads at once (a list, so no object is built per request).
	const prepared = new WeakMap<CachedPage, Map<string, string[]>>();

	const headOf = (
		page: CachedPage,
		path: string,
		variant: ReturnType<typeof variantOf>,
		notModified: boolean
	) => {
		const { encoding } = variant;
		let byEncoding = prepared.get(page);
		if (!byEncoding) prepared.set(page, (byEncoding = new Map()));
		const key = `${encoding}${notModified ? ' 304' : ''}`;
		let head = byEncoding.get(key);
		if (!head) {
			const merged = new Map(page.headers);
			const scriptSrc = scriptSrcFrom(merged.get('content-security-policy') ?? null) ?? undefined;
			for (const [name, value] of Object.entries(securityHeaders(config, scriptSrc, path)))
				if (value) merged.set(name, value);
			merged.set('x-page-cache', 'HIT');
			merged.set('cache-control', 'no-cache');
			merged.set('content-length', String(variant.body.byteLength));
			if (page.encoded) merged.set('vary', varyOnEncoding(merged.get('vary')));
			if (encoding) merged.set('content-encoding', encoding);
			if (variant.etag) merged.set('etag', variant.etag);
			merged.delete(REQUEST_ID_HEADER);
			head = (notModified ? notModifiedHeaders(merged) : [...merged]).flat();
			head.push(REQUEST_ID_HEADER, '');
			byEncoding.set(key, head);
		}
		return head;
	};

	return (req, res, requestId) => {
		if (req.method !== 'GET' && req.method !== 'HEAD') return false;
		// A GET with a body goes the long way (body admission), where its early answer closes the connection.
		if (Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding']) return false;
		const path = req.url ?? '';
		// Cached pages are stored under their bare path: a query string never matches one.
		if (!path.startsWith('/') || path.includes('?')) return false;
		if (hasSessionCookie(req.headers.cookie, config.origin)) return false;
		const page = cache()?.fresh(path);
		if (!page) return false;
		const variant = variantOf(page, pickEncoding(req.headers['accept-encoding']));
		const notModified = noneMatch(req.headers['if-none-match'], variant.etag);
		const head = headOf(page, path, variant, notModified);
		// writeHead copies the list into the head it sends before returning: the shared list's last slot is free again.
		head[head.length - 1] = requestId;
		recordPageCache('hit');
		res.writeHead(notModified ? 304 : page.status, head);
		res.end(req.method === 'HEAD' || notModified ? undefined : variant.body);
		return true;
	};
}

/** How long a page stays fresh in the cache, by path; 0: not cached. */
export type CachePolicy = (path: string) => number;

/** The registry's rule (platform mode's pages): its `cacheSeconds`, for the pages of `mode`. */
export const registryPolicy =
	(mode: Config['siteMode'], pages: Pick<PageRegistry, 'cachedPaths' | 'freshMs'> = registry): CachePolicy =>
	(path) =>
		pages.cachedPaths(mode).has(path) ? pages.freshMs(path) : 0;

/**
 * The hook, for hooks.server.ts (after `authenticate`): the pages `policy` caches come from the page cache for
 * anonymous visitors. Anyone with a session cookie, any query string and any method but GET/HEAD go straight to
 * the renderer, and never fill the cache.
 */
export function createHandle(deps: {
	config: Pick<Config, 'origin' | 'siteMode'>;
	/** Default: the registry's rule for the configured mode. */
	policy?: CachePolicy;
	cache?: PageCache;
}): Handle {
	const { cache = pageCache } = deps;
	const policy = (path: string) => (deps.policy ?? registryPolicy(deps.config.siteMode))(path);
	return async ({ event, resolve }) => {
		const path = event.url.pathname;
		const method = event.request.method;
		const freshMs = policy(path);
		const cacheable =
			freshMs > 0 &&
			// A client-side navigation's data request has the page's pathname here too: it wants JSON, not the page.
			!event.isDataRequest &&
			(method === 'GET' || method === 'HEAD') &&
			!event.url.search &&
			!event.locals.user &&
			!event.cookies.get(sessionCookieName(deps.config.origin));
		if (!cacheable) return resolve(event);

		let fresh: Response | null = null;
		const render = async (): Promise<CachedPage | null> => {
			const response = await resolve(event);
			fresh = response;
			if (response.status !== 200 || response.headers.has('set-cookie')) return null;
			const body = new Uint8Array(await response.clone().arrayBuffer());
			const headers = [...response.headers].filter(([name]) => name !== 'content-length');
			return { status: 200, headers, body, createdAt: Date.now(), freshMs, encoded: encodeOnce(body) };
		};
		const { state, page } = await cache.serve(path, render);
		recordPageCache(state === 'HIT' ? 'hit' : state === 'STALE' ? 'stale' : 'miss');
		// An answer not worth keeping (an error page, say) goes back to its requester as rendered.
		if (!page) return fresh ?? resolve(event);
		const variant = variantOf(page, pickEncoding(event.request.headers.get('accept-encoding')));
		const headers = new Headers(page.headers);
		headers.set('x-page-cache', state);
		headers.set('cache-control', 'no-cache');
		if (page.encoded) headers.set('vary', varyOnEncoding(headers.get('vary')));
		if (variant.encoding) headers.set('content-encoding', variant.encoding);
		if (variant.etag) headers.set('etag', variant.etag);
		if (noneMatch(event.request.headers.get('if-none-match'), variant.etag))
			return new Response(null, { status: 304, headers: new Headers(notModifiedHeaders(headers)) });
		headers.set('content-length', String(variant.body.byteLength));
		return new Response(method === 'HEAD' ? null : (variant.body as BodyInit), {
			status: page.status,
			headers
		});
	};
}
