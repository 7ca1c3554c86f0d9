import { describe, expect, it } from 'vitest';
import { MAX_AGE_MS, ReaderCache, type CatalogueModule } from './reader-cache';

function clock(start = 1_000_000) {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

const module = (title: string): CatalogueModule => ({
	id: `id-${title}`,
	slug: title.toLowerCase(),
	title,
	summary: '',
	durationMinutes: 5,
	published: true,
	updatedAt: new Date(0),
	video: null,
	captions: null,
	poster: null,
	attachments: [],
	quiz: null
});

/** A load the test finishes when it wants, counting how often it was started. */
function controlledLoad<V>() {
	const pending: ((value: V) => void)[] = [];
	const load = () => new Promise<V>((resolve) => pending.push(resolve));
	return { load, started: () => pending.length, finish: (i: number, value: V) => pending[i]!(value) };
}

describe('ReaderCache', () => {
	it('reads once, then answers from memory until MAX_AGE_MS have passed', async () => {
		const time = clock();
		const cache = new ReaderCache(time.now);
		let reads = 0;
		const load = async () => (reads++, [module('Un')]);
		expect((await cache.catalogueOf(load)).map((m) => m.title)).toEqual(['Un']);
		await cache.catalogueOf(load);
		time.advance(MAX_AGE_MS - 1);
		await cache.catalogueOf(load);
		expect(reads).toBe(1);
		time.advance(1);
		await cache.catalogueOf(load);
		expect(reads).toBe(2);
	});

	it('shares one read between readers asking at the same time', async () => {
		const cache = new ReaderCache();
		const catalogue = controlledLoad<CatalogueModule[]>();
		const asked = Array.from({ length: 16 }, () => cache.catalogueOf(catalogue.load));
		expect(catalogue.started()).toBe(1);
		catalogue.finish(0, [module('Un')]);
		const answers = await Promise.all(asked);
		expect(new Set(answers).size).toBe(1);
	});

	it('keeps each reader apart, and drops only the reader whose progress changed', async () => {
		const cache = new ReaderCache();
		const reads: string[] = [];
		const loadOf = (userId: string, ids: string[]) => async () => (reads.push(userId), ids);
		expect([...(await cache.completedBy('ana', loadOf('ana', ['m1'])))]).toEqual(['m1']);
		expect([...(await cache.completedBy('bob', loadOf('bob', [])))]).toEqual([]);
		await cache.progressChanged('ana');
		expect([...(await cache.completedBy('ana', loadOf('ana', ['m1', 'm2'])))]).toEqual(['m1', 'm2']);
		await cache.completedBy('bob', loadOf('bob', ['never read']));
		expect(reads).toEqual(['ana', 'bob', 'ana']);
	});

	it('does not keep a read that began before a change: it may predate the write', async () => {
		const cache = new ReaderCache();
		const before = controlledLoad<string[]>();
		const stale = cache.completedBy('ana', before.load);
		// The member completes a module while the page's read is in flight.
		await cache.progressChanged('ana');
		// A read asked after the change does not join the one in flight: it reads again.
		const after = controlledLoad<string[]>();
		const fresh = cache.completedBy('ana', after.load);
		expect(after.started()).toBe(1);
		after.finish(0, ['m1']);
		expect([...(await fresh)]).toEqual(['m1']);
		// The older read comes back last, with what it read before the write.
		before.finish(0, []);
		expect([...(await stale)]).toEqual([]);
		// The read that began after the change is the one kept: the next page is answered from it.
		expect([...(await cache.completedBy('ana', async () => ['read again']))]).toEqual(['m1']);
	});

	it('a change to the catalogue while it is read: the read in flight is not kept', async () => {
		const cache = new ReaderCache();
		const first = controlledLoad<CatalogueModule[]>();
		const inFlight = cache.catalogueOf(first.load);
		await cache.catalogueChanged();
		first.finish(0, [module('Ancien titre')]);
		expect((await inFlight)[0]!.title).toBe('Ancien titre');
		expect((await cache.catalogueOf(async () => [module('Nouveau titre')]))[0]!.title).toBe('Nouveau titre');
	});

	it('a failed read is not kept: the next page reads again', async () => {
		const cache = new ReaderCache();
		await expect(
			cache.completedBy('ana', () => Promise.reject(new Error('database unavailable')))
		).rejects.toThrow('database unavailable');
		expect([...(await cache.completedBy('ana', async () => ['m1']))]).toEqual(['m1']);
	});

	it('keeps at most 5 000 readers, the least recently read going first', async () => {
		const cache = new ReaderCache();
		for (let i = 0; i < 5_001; i++) await cache.completedBy(`reader-${i}`, async () => []);
		expect(cache.readers).toBe(5_000);
		let reread = false;
		await cache.completedBy('reader-0', async () => ((reread = true), []));
		expect(reread).toBe(true);
	});
});
