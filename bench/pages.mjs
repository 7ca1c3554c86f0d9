// Part "pages" of `npm run bench` (issue: marketing pages and the page cache): cached `/` against a bare
// node:http server answering the same compressed bytes and headers, both in their own process, under the same
// load generator (lib.mjs `againstBareServer` checks the baseline first).
import { BROWSER_HEADERS, againstBareServer, fmt, load, ratioText, startServer } from './lib.mjs';

export async function benchPages() {
	const server = await startServer();
	try {
		await fetch(`${server.url}/`);
		const home = await againstBareServer(server, '/', { control: true });
		console.log(
			`pages.cached_home_ratio ${ratioText(home)} (cached ${fmt(home.appRps, 0)} req/s, p50 ${fmt(home.appP50)} ms vs bare node:http sending the same ${(home.bytes / 1024).toFixed(0)} KB (${home.encoding}) ${fmt(home.bareRps, 0)} req/s, p50 ${fmt(home.bareP50)} ms; 16 clients; goal >= 0.95)`
		);
		console.log(
			`pages.noise_ratio ${fmt(home.noise)} (a bare server against an identical one, the same way: how far from 1.00 a page ratio lands by chance)`
		);
		// A query string bypasses the cache: every request renders the page (database read included).
		const uncached = await load(server.url, '/?bench=1', { total: 600, headers: BROWSER_HEADERS });
		console.log(
			`pages.uncached_render_ratio ${fmt(uncached.rps / home.appRps, 3)} (uncached render ${fmt(uncached.rps, 0)} req/s, p50 ${fmt(uncached.p50)} ms, vs cached ${fmt(home.appRps, 0)} req/s)`
		);
	} finally {
		await server.stop();
	}
}
