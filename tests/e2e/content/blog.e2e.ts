/**
 * The blog as readers, feed readers and browsers meet it (issue « Content, part 2 », points 2, 5 and 6), on a
 * server of its own: the feed is XML a browser parses, whole and stable; a renamed article sends its readers on,
 * an hour at most, its query kept — and renamed back, Chromium does not go round in circles; covers are indexable,
 * boxed before they load, the first fetched at once; HEAD says what GET sends in every encoding; a malformed slug
 * is a 404.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminApiOn } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';

let server: RunningServer;
let admin: APIRequestContext;

test.beforeAll(async () => {
	server = await startIsolatedServer();
	admin = await adminApiOn(server.url);
});
test.afterAll(async () => {
	await admin?.dispose();
	await server?.stop();
});

const origin = () => ({ origin: server.url });

/** A stored photo as a cover names it: its value, and its width (the widths `srcset` offers are below it). */
type Cover = { value: string; width: number };

async function uploadCover(): Promise<Cover> {
	const upload = await admin.post('/api/admin/upload', {
		headers: origin(),
		multipart: {
			file: {
				name: 'mur.jpg',
				mimeType: 'image/jpeg',
				buffer: readFileSync('tests/fixtures/images/Landscape_2.jpg')
			}
		}
	});
	expect(upload.status()).toBe(201);
	const { value, stats } = (await upload.json()) as { value: string; stats: { width: number } };
	return { value, width: stats.width };
}

/** Creates and publishes an article; returns its id and version. */
async function publishArticle(slug: string, cover: Cover | null) {
	const created = await admin.post('/api/admin/pages', {
		headers: origin(),
		data: {
			kind: 'article',
			slug,
			title: `Un article ${slug}`,
			description: 'Une description assez longue pour passer les règles de publication du blog.',
			body: '## Plan\n\nVoir [le contact](/contact) et [plus bas](#plan).'
		}
	});
	expect(created.status()).toBe(201);
	let entry = (await created.json()) as { id: string; version: number };
	if (cover) {
		const saved = await admin.put(`/api/admin/pages/${entry.id}`, {
			headers: origin(),
			data: {
				version: entry.version,
				draft: {
					slug,
					title: `Un article ${slug}`,
					description: 'Une description assez longue pour passer les règles de publication du blog.',
					body: '## Plan\n\nVoir [le contact](/contact) et [plus bas](#plan).',
					cover: { ...cover, alt: 'Un mur de pierre au soleil' }
				}
			}
		});
		expect(saved.status()).toBe(200);
		entry = { ...entry, version: ((await saved.json()) as { version: number }).version };
	}
	const published = await admin.post(`/api/admin/pages/${entry.id}/publish`, {
		headers: origin(),
		data: { version: entry.version }
	});
	expect(published.status(), await published.text()).toBe(200);
	return { id: entry.id, version: ((await published.json()) as { version: number }).version };
}

async function rename(id: string, slug: string) {
	const entry = (await (await admin.get(`/api/admin/pages/${id}`)).json()) as {
		version: number;
		live: Record<string, unknown>;
	};
	const saved = await admin.put(`/api/admin/pages/${id}`, {
		headers: origin(),
		data: { version: entry.version, draft: { ...entry.live, slug } }
	});
	const published = await admin.post(`/api/admin/pages/${id}/publish`, {
		headers: origin(),
		data: { version: ((await saved.json()) as { version: number }).version }
	});
	expect(published.status(), await published.text()).toBe(200);
}

test('the feed is whole, stable, compressed, answers 304, and parses as XML in a browser', async ({
	page
}) => {
	const cover = await uploadCover();
	const { id } = await publishArticle('flux-entier', cover);
	const response = await fetch(`${server.url}/blog/rss.xml`, { headers: { 'accept-encoding': 'identity' } });
	expect(response.status).toBe(200);
	const xml = await response.text();
	await page.goto(`${server.url}/`);
	const parsed = await page.evaluate((text) => {
		const doc = new DOMParser().parseFromString(text, 'application/xml');
		const item = doc.querySelector('item');
		return {
			error: doc.querySelector('parsererror')?.textContent ?? null,
			title: doc.querySelector('channel > title')?.textContent,
			guid: item?.querySelector('guid')?.textContent,
			permalink: item?.querySelector('guid')?.getAttribute('isPermaLink'),
			encoded: item?.getElementsByTagNameNS('http://purl.org/rss/1.0/modules/content/', 'encoded')[0]
				?.textContent,
			enclosure: item?.querySelector('enclosure')?.getAttribute('type'),
			length: Number(item?.querySelector('enclosure')?.getAttribute('length'))
		};
	}, xml);
	expect(parsed).toMatchObject({
		error: null,
		title: 'Le blog d’Atelier',
		guid: `atelier-article-${id}`,
		permalink: 'false',
		enclosure: 'image/webp'
	});
	expect(parsed.length).toBeGreaterThan(1000);
	expect(parsed.encoded).toContain(`href="${server.url}/contact"`);
	expect(parsed.encoded).toContain(`href="${server.url}/blog/flux-entier#plan"`);
	// Every page says where the feed is, now that the blog has an article.
	expect(await page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href')).toBe(
		'/blog/rss.xml'
	);

	const etag = response.headers.get('etag')!;
	expect(response.headers.get('last-modified')).toBeTruthy();
	const again = await fetch(`${server.url}/blog/rss.xml`, {
		headers: { 'accept-encoding': 'identity', 'if-none-match': etag }
	});
	expect(again.status).toBe(304);
	const since = await fetch(`${server.url}/blog/rss.xml`, {
		headers: { 'accept-encoding': 'identity', 'if-modified-since': response.headers.get('last-modified')! }
	});
	expect(since.status).toBe(304);
	const gzipped = await fetch(`${server.url}/blog/rss.xml`, { headers: { 'accept-encoding': 'gzip' } });
	expect(gzipped.headers.get('content-encoding')).toBe('gzip');
	expect(await gzipped.text()).toBe(xml);
});

test('a renamed article sends its readers on for an hour, query kept — and renamed back, Chromium arrives', async ({
	page
}) => {
	const { id } = await publishArticle('aller', null);
	await rename(id, 'retour');
	const moved = await fetch(`${server.url}/blog/aller?utm_source=lettre&utm_medium=email`, {
		redirect: 'manual'
	});
	expect(moved.status).toBe(301);
	expect(moved.headers.get('location')).toBe('/blog/retour?utm_source=lettre&utm_medium=email');
	expect(moved.headers.get('cache-control')).toBe('public, max-age=3600');

	// A returning reader: the browser has kept A → B; the article goes back to A (B → A now).
	await page.goto(`${server.url}/blog/aller`);
	await expect(page).toHaveURL(`${server.url}/blog/retour`);
	await rename(id, 'aller');
	// Within the hour the browser may keep A → B, B shows the article itself (its canonical address A) rather than
	// send the reader back to A: Chromium's own cache is the judge, and nobody goes round in circles.
	for (const from of ['aller', 'retour']) {
		const answer = await page.goto(`${server.url}/blog/${from}`);
		expect(answer?.status(), from).toBe(200);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Un article aller');
		expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${server.url}/blog/aller`);
	}
	// A browser that never saw A → B asks A and gets the article there.
	const fresh = await page.context().browser()!.newContext();
	const other = await fresh.newPage();
	expect((await other.goto(`${server.url}/blog/aller`))?.status()).toBe(200);
	await expect(other).toHaveURL(`${server.url}/blog/aller`);
	await fresh.close();
});

test('covers: indexable, boxed before they load, thumbnails in the list after its words, the article’s cover preloaded', async () => {
	const cover = await uploadCover();
	for (const slug of ['couverture-un', 'couverture-deux', 'couverture-trois', 'couverture-quatre'])
		await publishArticle(slug, cover);
	const html = await (await fetch(`${server.url}/blog`)).text();
	const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
	expect(images.length).toBeGreaterThanOrEqual(4);
	for (const img of images) {
		expect(img).toMatch(/ width="1600"/);
		expect(img).toMatch(/ height="900"/);
		if (/ sizes=/.test(img)) expect(img).toMatch(/ srcset=/);
	}
	// The list shows thumbnails: its largest content is its words, painted before any photo is asked for (nothing
	// preloaded, every thumbnail lazy), and a phone is sent the smallest variant (a 7.5rem box at 3× is under 480 px).
	expect(html).not.toMatch(/rel="preload" as="image"/);
	for (const img of images) {
		expect(img).toMatch(/loading="lazy"/);
		expect(img).toMatch(/ sizes="\(min-width: 40rem\) 12rem, 7\.5rem"/);
	}
	const article = await (await fetch(`${server.url}/blog/couverture-un`)).text();
	expect(article).toMatch(/<link[^>]* rel="preload" as="image"[^>]*fetchpriority="high"/);
	expect(article).toMatch(/<img [^>]*fetchpriority="high"/);
	const src = /src="([^"]+)"/.exec(images[0]!)![1]!.replaceAll('&amp;', '&');
	const photo = await fetch(`${server.url}${src}`);
	expect(photo.status).toBe(200);
	expect(photo.headers.get('x-robots-tag')).toBeNull();
	// The image proxy keeps its header.
	const proxied = await fetch(`${server.url}/api/img/hero`);
	expect(proxied.headers.get('x-robots-tag')).toBe('noindex, nofollow');
});

test('HEAD says what GET sends, in every encoding; If-None-Match: * is a 304 on a page that exists', async () => {
	await publishArticle('en-tete', null);
	for (const path of ['/', '/blog', '/blog/en-tete', '/blog/rss.xml', '/sitemap.xml', '/mentions-legales'])
		for (const encoding of ['identity', 'gzip', 'br, gzip']) {
			const headers = { 'accept-encoding': encoding };
			const get = await fetch(`${server.url}${path}`, { headers });
			await get.arrayBuffer();
			const head = await fetch(`${server.url}${path}`, { method: 'HEAD', headers });
			const what = `${path} (${encoding})`;
			expect(head.status, what).toBe(get.status);
			for (const name of ['content-type', 'content-encoding', 'vary', 'cache-control'])
				expect(head.headers.get(name), `${what}: ${name}`).toBe(get.headers.get(name));
			if (get.headers.get('etag')) expect(head.headers.get('etag'), what).toBe(get.headers.get('etag'));
			const star = await fetch(`${server.url}${path}`, { headers: { ...headers, 'if-none-match': '*' } });
			expect(star.status, `${what}: If-None-Match *`).toBe(304);
		}
	expect((await fetch(`${server.url}/blog/nulle-part`, { headers: { 'if-none-match': '*' } })).status).toBe(
		404
	);
});

test('a malformed slug is a 404, never a 500', async () => {
	for (const slug of ['%00', 'a%00b', 'Avec-Majuscules', 'accentu%C3%A9', 'x'.repeat(200), '%E2%80%8B'])
		expect((await fetch(`${server.url}/blog/${slug}`)).status, slug).toBe(404);
	expect((await fetch(`${server.url}/blog/%00/couverture`)).status).toBe(404);
});
