import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES, createPageRegistry } from '$lib/pages/registry';
import { loadConfig } from '../config';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { encodeOnce } from '../http/compression';
import { PageCache, createHandle, nodeFastPath, registryPolicy, type CachedPage } from './cache';

const page = (text: string, createdAt = Date.now()): CachedPage => ({
	status: 200,
	headers: [['content-type', 'text/html']],
	body: new TextEncoder().encode(text),
	createdAt
});
const text = (p: CachedPage | null) => new TextDecoder().decode(p?.body);

/** The site's pages and one more, a platform demo kept fresh `cacheSeconds`: a line added to the registry. */
const withCouvreur = (cacheSeconds: number) =>
	createPageRegistry([
		...PAGES,
		{
			path: '/couvreur',
			route: '/(marketing)/couvreur',
			label: 'Démo couvreur',
			modes: ['platform'],
			indexable: true,
			cacheSeconds
		}
	]);

function clock(start = 1_000_000) {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('PageCache', () => {
	it('renders on a miss, then serves hits while fresh', async () => {
		const time = clock();
		const cache = new PageCache(60_000, time.now);
		let renders = 0;
		const render = async () => page(`v${++renders}`, time.now());
		expect(await cache.serve('/', render).then((r) => [r.state, text(r.page)])).toEqual(['MISS', 'v1']);
		time.advance(59_000);
		expect(await cache.serve('/', render).then((r) => [r.state, text(r.page)])).toEqual(['HIT', 'v1']);
		expect(renders).toBe(1);
	});

	it('serves the stale copy once past 60 s while one regeneration runs in the background', async () => {
		const time = clock();
		const cache = new PageCache(60_000, time.now);
		let renders = 0;
		let release: () => void = () => {};
		const gate = new Promise<void>((r) => (release = r));
		await cache.serve('/', async () => page('v0', time.now()));
		time.advance(61_000);
		const slowRender = async () => {
			renders++;
			await gate;
			return page('v1', time.now());
		};
		const answers = await Promise.all(Array.from({ length: 20 }, () => cache.serve('/', slowRender)));
		expect(answers.every((a) => a.state === 'STALE' && text(a.page) === 'v0')).toBe(true);
		expect(renders).toBe(1);
		release();
		await new Promise((r) => setTimeout(r, 0));
		expect(await cache.serve('/', slowRender).then((r) => [r.state, text(r.page)])).toEqual(['HIT', 'v1']);
	});

	it('shares one render between concurrent misses', async () => {
		const cache = new PageCache();
		let renders = 0;
		const render = async () => (renders++, await new Promise((r) => setTimeout(r, 10)), page('once'));
		const answers = await Promise.all(Array.from({ length: 10 }, () => cache.serve('/macon', render)));
		expect(renders).toBe(1);
		expect(answers.map((a) => text(a.page))).toEqual(Array(10).fill('once'));
	});

	it('keeps nothing that the renderer declines (an error page)', async () => {
		const cache = new PageCache();
		await cache.serve('/', async () => null);
		expect(cache.size).toBe(0);
	});

	it('purges one page and tells the listeners', async () => {
		const cache = new PageCache();
		const heard: string[] = [];
		cache.onPurge((p) => heard.push(p));
		await cache.serve('/', async () => page('home'));
		await cache.serve('/macon', async () => page('macon'));
		cache.purgeLocal('/');
		expect(heard).toEqual(['/']);
		expect((await cache.serve('/', async () => page('home 2'))).state).toBe('MISS');
		expect((await cache.serve('/macon', async () => page('macon 2'))).state).toBe('HIT');
	});

	it('does not store a render that began before a purge', async () => {
		const cache = new PageCache();
		let release: () => void = () => {};
		const gate = new Promise<void>((r) => (release = r));
		const before = cache.serve('/', async () => (await gate, page('old')));
		cache.purgeLocal('/');
		release();
		expect(text((await before).page)).toBe('old');
		expect((await cache.serve('/', async () => page('new'))).state).toBe('MISS');
	});
});

describe('PageCache freshness from the registry', () => {
	it('keeps each page fresh for its own cacheSeconds', async () => {
		const registry = withCouvreur(10);
		const time = clock();
		const cache = new PageCache(registry.freshMs, time.now);
		await cache.serve('/', async () => page('home', time.now()));
		await cache.serve('/couvreur', async () => page('couvreur', time.now()));
		time.advance(11_000);
		expect(cache.fresh('/')).not.toBeNull();
		expect(cache.fresh('/couvreur')).toBeNull();
	});
});

describe('nodeFastPath', () => {
	/** A real server: the fast path first, then a stand-in for SvelteKit that answers 299. */
	async function serverWith(
		answer: (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean
	) {
		let requests = 0;
		const server = createServer((req, res) => {
			if (answer(req, res, `request-${++requests}`)) return;
			res.writeHead(299, { 'content-type': 'text/plain' }).end('app');
		});
		await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
		const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		return {
			base,
			get: (p: string, init?: RequestInit) => fetch(base + p, init),
			close: () => new Promise((r) => server.close(r))
		};
	}

	const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atelier-fast-path-')) });
	// One line added to the registry: the fast path answers it, in the modes it lists.
	const registry = withCouvreur(60);

	it('answers an anonymous GET or HEAD of a fresh cached page, with the security headers', async () => {
		const cache = new PageCache(registry.freshMs);
		await cache.serve('/couvreur', async () => page('couvreur'));
		const server = await serverWith(nodeFastPath(config, () => cache));
		try {
			const hit = await server.get('/couvreur');
			expect(hit.status).toBe(200);
			expect(hit.headers.get('x-page-cache')).toBe('HIT');
			expect(hit.headers.get('cache-control')).toBe('no-cache');
			expect(hit.headers.get('x-content-type-options')).toBe('nosniff');
			expect(hit.headers.get('content-length')).toBe(String('couvreur'.length));
			expect(await hit.text()).toBe('couvreur');
			const head = await server.get('/couvreur', { method: 'HEAD' });
			expect([head.status, head.headers.get('x-page-cache'), await head.text()]).toEqual([200, 'HIT', '']);
			// The heads are shared per page; each answer still carries its own request's id, once.
			expect([hit.headers.get('x-request-id'), head.headers.get('x-request-id')]).toEqual([
				'request-1',
				'request-2'
			]);
		} finally {
			await server.close();
		}
	});

	it('answers in Brotli or gzip when accepted, from bodies compressed once', async () => {
		const html = '<!doctype html><p>couvreur</p>'.repeat(200);
		const cache = new PageCache(registry.freshMs);
		await cache.serve('/couvreur', async () => {
			const body = new TextEncoder().encode(html);
			return { ...page(html), body, encoded: encodeOnce(body) };
		});
		const server = await serverWith(nodeFastPath(config, () => cache));
		const raw = async (encoding: string) => {
			const { request } = await import('node:http');
			return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
				const url = new URL(server.base + '/couvreur');
				request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
				})
					.on('error', reject)
					.end();
			});
		};
		try {
			const br = await raw('gzip, br');
			expect([br.headers['content-encoding'], br.headers.vary]).toEqual(['br', 'Accept-Encoding']);
			expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
			expect(brotliDecompressSync(br.body).toString()).toBe(html);
			const gzip = await raw('gzip');
			expect(gzip.headers['content-encoding']).toBe('gzip');
			expect(gunzipSync(gzip.body).toString()).toBe(html);
			const identity = await raw('identity');
			expect(identity.headers['content-encoding']).toBeUndefined();
			expect(identity.body.toString()).toBe(html);
		} finally {
			await server.close();
		}
	});

	it('leaves to the app: a session cookie, a query string, a POST, an uncached or stale page', async () => {
		const time = clock();
		const cache = new PageCache(registry.freshMs, time.now);
		await cache.serve('/couvreur', async () => page('couvreur', time.now()));
		await cache.serve('/contact', async () => page('contact', time.now()));
		const app = await serverWith(nodeFastPath(config, () => cache));
		try {
			const status = async (answer: Promise<Response>) => (await answer).status;
			expect(await status(app.get('/couvreur', { headers: { cookie: 'theme=1; session=x' } }))).toBe(299);
			expect(await status(app.get('/couvreur?utm=1'))).toBe(299);
			expect(await status(app.get('/couvreur', { method: 'POST' }))).toBe(299);
			expect(await status(app.get('/contact'))).toBe(299);
			expect(await status(app.get('/couvreur'))).toBe(200);
			time.advance(61_000);
			expect(await status(app.get('/couvreur'))).toBe(299);
		} finally {
			await app.close();
		}
	});
});

describe('createHandle', () => {
	/** A SvelteKit event as the hook sees it, for an anonymous visitor. */
	const event = (path: string, isDataRequest = false) =>
		({
			isDataRequest,
			url: new URL(`http://x.test${path}`),
			request: new Request(`http://x.test${path}`),
			locals: { user: null },
			cookies: { get: () => undefined }
		}) as unknown as Parameters<ReturnType<typeof createHandle>>[0]['event'];
	const config = { origin: new URL('http://x.test'), siteMode: 'platform' as const };

	it('caches what its policy names, for as long as the policy says, and nothing else', async () => {
		let renders = 0;
		const resolve = async () => (renders++, new Response(`page ${renders}`, { status: 200 }));
		const cache = new PageCache(() => 0);
		const handle = createHandle({
			config: { ...config, siteMode: 'showcase' },
			policy: (path) => (path.startsWith('/services/') ? 60_000 : 0),
			cache
		});
		const get = async (path: string) => {
			const response = await handle({ event: event(path), resolve });
			return [response.headers.get('x-page-cache'), await response.text()];
		};
		expect(await get('/services/murs')).toEqual(['MISS', 'page 1']);
		expect(await get('/services/murs')).toEqual(['HIT', 'page 1']);
		// The entry carries its own freshness: the cache's rule (0 here) is not asked.
		expect(cache.fresh('/services/murs')).not.toBeNull();
		expect(await get('/macon')).toEqual([null, 'page 2']);
		expect(cache.fresh('/macon')).toBeNull();
		// A data request (…/__data.json) carries the page's pathname: it never gets the cached HTML.
		const data = await handle({ event: event('/services/murs', true), resolve });
		expect([data.headers.get('x-page-cache'), await data.text()]).toEqual([null, 'page 3']);
	});

	it('follows the registry by default: its cached pages in platform mode, none of them in showcase mode', () => {
		expect(registryPolicy('platform')('/macon')).toBe(60_000);
		expect(registryPolicy('platform')('/contact')).toBe(0);
		expect(registryPolicy('showcase')('/macon')).toBe(0);
	});
});
