// Part "pages" of `npm run bench` (issue: marketing pages and the page cache): cached `/` against a bare
// node:http server answering the same compressed bytes and headers, both in their own process, under the same
// load generator (lib.mjs `againstBareServer` checks the baseline first).
import {
	BROWSER_HEADERS,
	ROUND_REQUESTS,
	againstBareServer,
	cpuText,
	fmt,
	load,
	pairedRatio,
	ratioText,
	startServer
} from './lib.mjs';

/** What an operator who watches the site runs: metrics collected (issue « Many instances, one site », point 5). */
const METRICS_TOKEN = 'bench-metrics-token-'.padEnd(40, '0');

export async function benchPages() {
	// Everything a cached page does in production is on: the audience counts each request (a browser's, BROWSER_HEADERS),
	// the access log writes its line, the metrics count and time it.
	const server = await startServer({ METRICS_TOKEN });
	try {
		await fetch(`${server.url}/`);
		const home = await againstBareServer(server, '/', { control: true });
		console.log(
			`pages.cached_home_ratio ${ratioText(home)} (cached ${fmt(home.appRps, 0)} req/s, p50 ${fmt(home.appP50)} ms vs bare node:http sending the same ${(home.bytes / 1024).toFixed(0)} KB (${home.encoding}) ${fmt(home.bareRps, 0)} req/s, p50 ${fmt(home.bareP50)} ms${cpuText(home)}; 16 clients; audience, access log and metrics on; goal >= 0.95)`
		);
		console.log(
			`pages.noise_ratio ${fmt(home.noise)} (a bare server against an identical one, the same way: how far from 1.00 a page ratio lands by chance)`
		);
		// A query string bypasses the cache: every request renders the page (database read included).
		const uncached = await load(server.url, '/?bench=1', { total: 600, headers: BROWSER_HEADERS });
		console.log(
			`pages.uncached_render_ratio ${fmt(uncached.rps / home.appRps, 3)} (uncached render ${fmt(uncached.rps, 0)} req/s, p50 ${fmt(uncached.p50)} ms, vs cached ${fmt(home.appRps, 0)} req/s)`
		);
		await metricsCost(server);
	} finally {
		await server.stop();
	}
}

/**
 * The cost of collecting metrics (issue « Many instances, one site », point 2): the cached home of a server with
 * METRICS_TOKEN set (every request counted and timed, the default process metrics on) against the same server
 * without, in alternating rounds; a scrape between them proves the first one counts.
 */
async function metricsCost(on) {
	const token = METRICS_TOKEN;
	const off = await startServer();
	try {
		await fetch(`${off.url}/`);
		await fetch(`${on.url}/`);
		const options = { headers: BROWSER_HEADERS };
		await load(on.url, '/', { ...options, total: ROUND_REQUESTS });
		const { ratio } = await pairedRatio(
			(url) => load(url, '/', { ...options, total: ROUND_REQUESTS }),
			on.url,
			off.url,
			5
		);
		const scraped = await (
			await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
		).text();
		const counted = /^atelier_page_cache_total\{result="hit"\} (\d+)/m.exec(scraped)?.[1];
		if (!counted || Number(counted) < ROUND_REQUESTS)
			throw new Error('the server with metrics on did not count its hits');
		console.log(
			`pages.metrics_on_off_ratio ${fmt(ratio, 3)} (cached home with METRICS_TOKEN set, ${counted} hits counted, against the same without; 1.00: free)`
		);
	} finally {
		await off.stop();
	}
}
