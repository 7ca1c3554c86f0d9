import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

const pages = [
	{ path: '/', title: /Atelier — sites web/, jsonLd: 'Organization', cta: '/contact' },
	{ path: '/macon', title: /Maçonnerie Girard/, jsonLd: 'GeneralContractor', cta: '/devis' },
	{ path: '/paysagiste', title: /Les Jardins de Margaux/, jsonLd: 'LocalBusiness', cta: '#contact' }
];

for (const width of [360, 768, 1280]) {
	for (const p of pages) {
		test(`${p.path} at ${width}px: every image loads, no horizontal scroll, no console error`, async ({
			page
		}, testInfo) => {
			await page.setViewportSize({ width, height: 800 });
			const response = await page.goto(p.path);
			expect(response?.status()).toBe(200);
			const images = page.locator('main img');
			const count = await images.count();
			expect(count).toBeGreaterThanOrEqual(5);
			for (let i = 0; i < count; i++) {
				const img = images.nth(i);
				await img.scrollIntoViewIfNeeded();
				await expect
					.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), {
						timeout: 10_000
					})
					.toBeGreaterThan(0);
				await expect(img).toHaveAttribute('alt', /\S/);
				await expect(img).toHaveAttribute('width', /^\d+$/);
				await expect(img).toHaveAttribute('height', /^\d+$/);
				await expect(img).toHaveAttribute('src', /^\/api\/img\/[a-z_0-9]+\?v=[\w-]+$/);
			}
			const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
			expect(overflow).toBeLessThanOrEqual(0);
			await testInfo.attach(`${p.path.replace('/', '') || 'home'}-${width}.png`, {
				body: await page.screenshot({ fullPage: true }),
				contentType: 'image/png'
			});
		});
	}
}

for (const p of pages) {
	test(`${p.path} has its own title, description, canonical URL, Open Graph and JSON-LD`, async ({
		page
	}) => {
		await page.goto(p.path);
		await expect(page).toHaveTitle(p.title);
		await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{50,}/);
		await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
			'href',
			new RegExp(`${p.path.replace('/', '\\/')}$`)
		);
		await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', p.title);
		const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
		expect(ld['@type']).toBe(p.jsonLd);
		await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
		const hero = page.locator('main img').first();
		await expect(hero).toHaveAttribute('fetchpriority', 'high');
		await expect(page.locator('main img[loading="lazy"]')).toHaveCount(
			(await page.locator('main img').count()) - 1
		);
		await expect(page.locator(`main a[href="${p.cta}"]`).first()).toBeVisible();
	});
}

/** The ?v= of each image on a page, by key. */
async function versions(request: import('@playwright/test').APIRequestContext, path: string) {
	const response = await request.get(path);
	const html = await response.text();
	const found = Object.fromEntries(
		[...html.matchAll(/\/api\/img\/([a-z_0-9]+)\?v=([\w-]+)/g)].map((m) => [m[1], m[2]])
	);
	return { state: response.headers()['x-page-cache'], found, html };
}

test('a PUT purges the slot’s page at once and changes its ?v=, and only that page', async ({
	page,
	playwright
}) => {
	const anonymous = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
	await versions(anonymous, '/');
	await versions(anonymous, '/macon');
	const home = await versions(anonymous, '/');
	const macon = await versions(anonymous, '/macon');
	expect(home.state).toBe('HIT');
	expect(macon.state).toBe('HIT');

	await signInAsAdmin(page);
	const url = `https://images.unsplash.com/photo-e2e-${Date.now()}?w=1600`;
	expect(
		(await page.request.put('/api/admin/site-images', { data: { key: 'service_1', url } })).status()
	).toBe(200);

	const after = await versions(anonymous, '/');
	expect(after.state).toBe('MISS');
	expect(after.found.service_1).not.toBe(home.found.service_1);
	expect(after.found.hero).toBe(home.found.hero);
	const maconAfter = await versions(anonymous, '/macon');
	expect(maconAfter.state).toBe('HIT');
	expect(maconAfter.found).toEqual(macon.found);
	await page.request.put('/api/admin/site-images', { data: { key: 'service_1', url: null } });
	await anonymous.dispose();
});

test('signed-in visitors bypass the page cache and never fill it', async ({ page, playwright }) => {
	await signInAsAdmin(page);
	const signedIn = await page.request.get('/paysagiste');
	expect(signedIn.headers()['x-page-cache']).toBeUndefined();
	expect(await signedIn.text()).toContain('Se déconnecter');
	const anonymous = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
	const visitor = await anonymous.get('/paysagiste');
	expect(visitor.headers()['x-page-cache']).toMatch(/^(HIT|MISS|STALE)$/);
	expect(await visitor.text()).not.toContain('Se déconnecter');
	await anonymous.dispose();
});

test('every page of the sitemap names itself as its canonical address, once', async ({ request }) => {
	const xml = await (await request.get('/sitemap.xml')).text();
	const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
	expect(urls.length).toBeGreaterThanOrEqual(9);
	const wrong: string[] = [];
	for (const url of urls) {
		const path = new URL(url).pathname;
		const html = await (await request.get(path)).text();
		const canonical = [...html.matchAll(/<link rel="canonical" href="([^"]+)"/g)].map((m) => m[1]);
		if (canonical.length !== 1 || canonical[0] !== url)
			wrong.push(`${path}: ${canonical.join(', ') || 'none'}`);
	}
	expect(wrong).toEqual([]);
	// A page that is not indexable names none (the members' area, the account's pages).
	expect(await (await request.get('/login')).text()).not.toContain('rel="canonical"');
});
