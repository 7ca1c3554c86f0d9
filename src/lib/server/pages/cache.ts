/**
 * The page cache of `/`, `/macon` and `/paysagiste` (CONTRACT §4): each page's full HTML is kept in memory per
 * instance, fresh for 60 s; then one request is served the stale copy while a single regeneration runs in the
 * background (no stampede). `purge(path)` drops a page on this instance and, through PostgreSQL NOTIFY, on every
 * other instance sharing the database. Signed-in visitors never read or fill it (cached HTML holds nobody's data).
 */
import type postgres from 'postgres';
import { log } from '../log';

export const CACHED_PATHS = new Set(['/', '/macon', '/paysagiste']);
export const FRESH_MS = 60_000;
const CHANNEL = 'atelier_page_purge';

export interface CachedPage {
	status: number;
	headers: [string, string][];
	body: Uint8Array<ArrayBuffer>;
	createdAt: number;
}

export type CacheState = 'HIT' | 'MISS' | 'STALE';

type Listener = (path: string) => void;

export class PageCache {
	private readonly entries = new Map<string, CachedPage>();
	/** Bumped by every purge: a render that began before a purge must not store what it rendered. */
	private readonly generations = new Map<string, number>();
	private readonly rendering = new Map<string, Promise<CachedPage | null>>();
	private readonly listeners = new Set<Listener>();

	constructor(
		private readonly freshMs = FRESH_MS,
		private readonly now: () => number = Date.now
	) {}

	onPurge(listener: Listener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
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
		if (entry && this.now() - entry.createdAt < this.freshMs) return { state: 'HIT', page: entry };
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
		return entry && this.now() - entry.createdAt < this.freshMs ? entry : null;
	}

	get size(): number {
		return this.entries.size;
	}
}

export const pageCache = new PageCache();

/**
 * The server entry (a separate bundle in the same process) answers fresh hits before SvelteKit runs; it finds
 * this instance under a registered symbol, as it does the shutdown hooks.
 */
export const PAGE_CACHE_KEY = Symbol.for('atelier.page-cache');

/** Called once by the app at start-up (not on import: the server entry's bundle imports this module too). */
export function exposePageCache(): void {
	(globalThis as unknown as Record<symbol, PageCache>)[PAGE_CACHE_KEY] = pageCache;
}

let notifier: postgres.Sql | null = null;

/**
 * Listens for purges made by other instances. postgres.js re-establishes the LISTEN after a dropped
 * connection; on PGlite (one process) purges stay in-process.
 */
export async function startPurgeListener(client: postgres.Sql | null): Promise<void> {
	if (!client) return;
	notifier = client;
	await client.listen(
		CHANNEL,
		(path) => {
			if (CACHED_PATHS.has(path)) pageCache.purgeLocal(path);
		},
		() => log.info('listening for page purges', { channel: CHANNEL })
	);
}

export function onPurge(listener: Listener): () => void {
	return pageCache.onPurge(listener);
}

/** Drops a page on every instance before returning. */
export async function purge(path: string): Promise<void> {
	pageCache.purgeLocal(path);
	if (notifier) await notifier.notify(CHANNEL, path);
}
