// Part "pages" of `npm run bench` (issue: marketing pages and the page cache): cached `/` against a bare
// node:http server answering the same bytes, both in their own process, under the same load generator.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fmt, load, median, startBareServer, startServer } from './lib.mjs';

export async function benchPages() {
	const server = await startServer();
	try {
		await fetch(`${server.url}/`);
		const sample = await fetch(`${server.url}/`);
		if (sample.headers.get('x-page-cache') !== 'HIT')
			throw new Error('the home page is not served from the cache');
		const bytes = Buffer.from(await sample.arrayBuffer());
		const headers = Object.fromEntries(
			[...sample.headers].filter(
				([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)
			)
		);
		const file = path.join(server.dataDir, 'home.html');
		writeFileSync(file, bytes);
		const bare = await startBareServer(file, headers);
		try {
			await load(bare.url, '/', { total: 1000 });
			await load(server.url, '/', { total: 1000 });
			const bareRounds = [];
			const cachedRounds = [];
			for (let round = 0; round < 3; round++) {
				bareRounds.push(await load(bare.url, '/', { total: 4000 }));
				cachedRounds.push(await load(server.url, '/', { total: 4000 }));
			}
			const bareRps = median(bareRounds.map((r) => r.rps));
			const cachedRps = median(cachedRounds.map((r) => r.rps));
			console.log(
				`pages.cached_home_ratio ${fmt(cachedRps / bareRps)} (cached / ${fmt(cachedRps, 0)} req/s vs bare node:http with the same ${(bytes.length / 1024).toFixed(0)} KB ${fmt(bareRps, 0)} req/s, 16 clients; target >= 0.5)`
			);
			// A query string bypasses the cache: every request renders the page (database read included).
			const uncached = await load(server.url, '/?bench=1', { total: 600 });
			console.log(
				`pages.uncached_render_ratio ${fmt(uncached.rps / cachedRps, 3)} (uncached render ${fmt(uncached.rps, 0)} req/s, p50 ${fmt(uncached.p50)} ms, vs cached ${fmt(cachedRps, 0)} req/s)`
			);
		} finally {
			await bare.stop();
		}
	} finally {
		await server.stop();
	}
}
