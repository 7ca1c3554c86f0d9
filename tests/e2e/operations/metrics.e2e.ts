/**
 * `GET /metrics` on the built server (issue « Many instances, one site », point 2): off by default; with
 * METRICS_TOKEN, what the server entry and the app counted, labelled by route id — never a raw path, so that a
 * crawler cannot grow the series — and never a visit, never cached, never a request line at `info`.
 */
import { expect, test } from '@playwright/test';
import { startIsolatedServer } from '../support/server';

const TOKEN = 'e2e-metrics-token-'.padEnd(48, '4');

test('off unless METRICS_TOKEN is set: 404 with the security headers', async ({ request }) => {
	const response = await request.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
	expect(response.status()).toBe(404);
	expect(response.headers()['x-content-type-options']).toBe('nosniff');
});

test('with METRICS_TOKEN: the requests by route id, the page cache, the image proxy, 401 without the token', async () => {
	test.setTimeout(90_000);
	const server = await startIsolatedServer({ METRICS_TOKEN: TOKEN });
	try {
		const refused = await fetch(`${server.url}/metrics`);
		expect(refused.status).toBe(401);
		expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
		// A page twice (rendered, then from the page cache), an image, a path of a crawler, an unknown image.
		for (const path of ['/', '/', '/api/img/about', '/wp-login.php?x=1', '/api/img/inconnue-123'])
			await (await fetch(`${server.url}${path}`)).arrayBuffer();
		const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
		expect(scraped.status).toBe(200);
		expect(scraped.headers.get('cache-control')).toBe('no-store');
		const text = await scraped.text();
		/** A series' value (after its name and labels, which may hold spaces); one never counted is not written (0). */
		const value = (series: string) =>
			Number(
				text
					.split('\n')
					.find((line) => line.startsWith(`${series} `))
					?.slice(series.length + 1) ?? 0
			);
		expect(
			value('atelier_http_requests_total{method="GET",route="/(marketing)",status="200"}')
		).toBeGreaterThanOrEqual(1);
		expect(value('atelier_page_cache_total{result="hit"}')).toBeGreaterThanOrEqual(1);
		expect(value('atelier_http_requests_total{method="GET",route="/api/img/[key]",status="200"}')).toBe(1);
		expect(value('atelier_http_requests_total{method="GET",route="/api/img/[key]",status="404"}')).toBe(1);
		expect(value('atelier_image_proxy_total{outcome="not_found"}')).toBe(1);
		// Offline here, the stock photo behind `about` falls back to the bundled one: said apart from « served ».
		expect(
			value('atelier_image_proxy_total{outcome="fallback"}') +
				value('atelier_image_proxy_total{outcome="served"}')
		).toBe(1);
		expect(value('atelier_http_requests_total{method="GET",route="(no route)",status="404"}')).toBe(1);
		expect(value('atelier_database_up')).toBe(1);
		// Route ids only: no path a visitor typed is a label.
		expect(text).not.toContain('wp-login');
		expect(text).not.toContain('inconnue-123');
		// A scrape is logged at debug only, as the health probes are; a refused one is worth a line.
		await expect.poll(() => server.output()).toContain('"route":"/metrics","status":401');
		expect(server.output()).not.toContain('"route":"/metrics","status":200');
	} finally {
		await server.stop();
	}
});
