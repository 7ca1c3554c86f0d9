/**
 * The server's memory as a site's visitors meet it (issue « Every door holds, part 2 », point 4): its peak RSS —
 * VmHWM, what `/usr/bin/time -v` reports as its maximum — stays within 300 MB through the README's mixed traffic
 * (`npm run bench memory`'s, the same functions: pages, photos at several widths, contact requests, failed
 * sign-ins, from 8 clients), and views of the photos' variants after it raise it by at most 40 MB. On the embedded
 * database in `npm test`, on PostgreSQL in `npm run test:drivers`. Shorter than the bench (30 s of mixed traffic,
 * not 60), alone once every other test is done (playwright.config.ts, project `memory`): beside other workers, the
 * server would get a fraction of the traffic. Before 7 December the embedded server peaked at 297–320 MB in the
 * bench (its young generation at 64 MB, the PDF stack loaded from the start, its code held as two-byte strings:
 * src/server/heap.ts, courses/pdf-documents.ts, scripts/ascii-sources.mjs).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startIsolatedServer } from '../support/server';

type Visit = (url: string) => Promise<Response>;
/** The benchmark's traffic (plain JavaScript, untyped: loaded by its address, not type-checked here). */
const benchMemory = new URL('../../../bench/memory.mjs', import.meta.url).href;
const { mixedTraffic, PHOTO_VIEWS } = (await import(benchMemory)) as {
	mixedTraffic: (url: string, seconds: number, concurrency?: number, kinds?: Visit[]) => Promise<number>;
	PHOTO_VIEWS: Visit[];
};

const MB = 1024 * 1024;
const PEAK_LIMIT = 300 * MB;
const PHOTO_GROWTH_LIMIT = 40 * MB;

function memoryOf(pid: number): { rss: number; peak: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kB = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
	return { rss: kB('VmRSS'), peak: kB('VmHWM') };
}

test(
	'the server peaks within 300 MB through the mixed traffic, and photo variants raise it by at most 40 MB',
	{ tag: '@drivers' },
	async () => {
		test.setTimeout(180_000);
		const server = await startIsolatedServer();
		try {
			const pid = server.child.pid!;
			for (const page of ['/', '/contact', '/devis', '/login'])
				await (await fetch(`${server.url}${page}`)).text();
			const requests = await mixedTraffic(server.url, 30);
			const { rss, peak } = memoryOf(pid);
			// Then views of the photos' variants alone: they do not go on raising it.
			const photoViews = await mixedTraffic(server.url, 10, 8, PHOTO_VIEWS);
			const photoGrowth = memoryOf(pid).rss - rss;
			const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
			console.log(
				`memory: ${requests} mixed requests, then ${mb(rss)}, peak ${mb(peak)}; ${photoViews} photo views +${mb(photoGrowth)}`
			);
			expect(requests).toBeGreaterThan(100);
			expect(photoViews).toBeGreaterThan(100);
			expect(peak).toBeLessThanOrEqual(PEAK_LIMIT);
			expect(photoGrowth).toBeLessThanOrEqual(PHOTO_GROWTH_LIMIT);
		} finally {
			await server.stop();
		}
	}
);
