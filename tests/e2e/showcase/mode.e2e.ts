/**
 * SITE_MODE=showcase (issue "Showcase mode", points 1 and 4): every platform route answers 404 — found by walking
 * src/routes, not listed by hand — its handlers never run; robots.txt and sitemap.xml follow the mode.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { routeExistsIn } from '../../../src/lib/pages/modes';

const routesDir = path.resolve(import.meta.dirname, '../../../src/routes');
const SAMPLE = { uuid: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c' };

/** Route ids with a page or endpoint, and a concrete URL for each (parameters filled with sample values). */
function routes(dir = routesDir, id = ''): { id: string; url: string; page: boolean }[] {
	const entries = readdirSync(dir, { withFileTypes: true });
	const files = entries.filter((e) => e.isFile()).map((e) => e.name);
	const here =
		files.some((f) => f.startsWith('+page')) || files.some((f) => f.startsWith('+server'))
			? [
					{
						id: id || '/',
						// A page a browser reads (a +page.svelte); a route of actions only is answered as an API.
						page: files.includes('+page.svelte'),
						url:
							(id || '/')
								.replace(/\/\([^)]+\)/g, '')
								.replace(/\[\.\.\.[^\]]+\]/g, 'a/b.webp')
								.replace(/\[[^\]]+=uuid\]/g, SAMPLE.uuid)
								.replace(/\[[^\]]+\]/g, 'exemple') || '/'
					}
				]
			: [];
	return [
		...here,
		...entries
			.filter((e) => e.isDirectory())
			.flatMap((e) => routes(path.join(dir, e.name), `${id}/${e.name}`))
	];
}

let server: RunningServer;
test.beforeAll(async () => {
	server = await startIsolatedServer({ SITE_MODE: 'showcase' });
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
});

test('every platform route answers 404 in showcase mode, pages and API alike, GET and POST', async () => {
	const platformOnly = routes().filter((r) => !routeExistsIn(r.id === '/' ? '/' : r.id, 'showcase'));
	expect(platformOnly.length).toBeGreaterThan(20);
	for (const route of platformOnly) {
		const get = await fetch(`${server.url}${route.url}`, {
			redirect: 'manual',
			headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' }
		});
		expect(get.status, `GET ${route.url} (${route.id})`).toBe(404);
		// Read through a decoding client: the page itself, not a body its headers lie about.
		const body = await get.text();
		if (route.page) expect(body, `GET ${route.url}`).toMatch(/<title>Page introuvable — [^<]+<\/title>/);
		const post = await fetch(`${server.url}${route.url}`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
			body: 'x=1'
		});
		expect(post.status, `POST ${route.url} (${route.id})`).toBe(404);
	}
});

test('the 404 page of the other mode is readable in Chromium, in both modes', async ({ page, baseURL }) => {
	// This file's server is in showcase mode; the suite's shared server is the platform.
	for (const url of [
		`${server.url}/login`,
		`${server.url}/candidature`,
		`${baseURL}/services`,
		`${baseURL}/secteurs`
	]) {
		const answer = await page.goto(url);
		expect(answer?.status(), url).toBe(404);
		await expect(page, url).toHaveTitle(/^Page introuvable — /);
		await expect(page.getByRole('heading', { level: 1 }), url).toBeVisible();
	}
	// And with curl's defaults (no Accept-Encoding) and with gzip: the body reads as HTML either way.
	for (const encoding of ['identity', 'gzip']) {
		const answer = await fetch(`${baseURL}/realisations`, { headers: { 'accept-encoding': encoding } });
		expect(answer.status).toBe(404);
		expect(await answer.text()).toContain('Page introuvable');
	}
});

test('robots.txt and sitemap.xml follow the mode', async () => {
	const robots = await (await fetch(`${server.url}/robots.txt`)).text();
	expect(robots).toContain('Allow: /');
	expect(robots).toContain('Disallow: /api/');
	expect(robots).not.toContain('/admin');
	expect(robots).toContain(`Sitemap: ${server.url}/sitemap.xml`);
	const sitemap = await fetch(`${server.url}/sitemap.xml`);
	expect(sitemap.headers.get('content-type')).toContain('application/xml');
	const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
	expect(locs).toContain(`${server.url}/contact`);
	expect(locs.some((l) => /\/(devis|macon|paysagiste|candidature)$/.test(l!))).toBe(false);
});
