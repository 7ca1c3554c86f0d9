import { describe, expect, it } from 'vitest';
import { PageCache, type CachedPage } from './cache';

const page = (text: string, createdAt = Date.now()): CachedPage => ({
	status: 200,
	headers: [['content-type', 'text/html']],
	body: new TextEncoder().encode(text),
	createdAt
});
const text = (p: CachedPage | null) => new TextDecoder().decode(p?.body);

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
