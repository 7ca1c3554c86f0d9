/**
 * Issue "Experience": what the wire carries: srcset widths from the proxy, compressed HTML, typography, icons.
 */
import { expect, expectConsoleNotes, test } from '../support/fixtures';
import { expectNoAxeViolation } from '../support/a11y';

const NNBSP = '\u202F';
const NBSP = '\u00A0';

test.describe('on the wire', () => {
	test('pages offer their images in the proxy’s widths; the proxy refuses any other width', async ({
		page,
		request
	}) => {
		await page.goto('/');
		const hero = page.locator('section.hero img');
		await expect(hero).toHaveAttribute('fetchpriority', 'high');
		await expect(hero).toHaveAttribute('decoding', 'async');
		const srcset = (await hero.getAttribute('srcset'))!;
		for (const width of [480, 800, 1200]) expect(srcset).toContain(`&w=${width} ${width}w`);
		const src = (await hero.getAttribute('src'))!;
		const sized = await request.get(`${src}&w=800`);
		expect(sized.status()).toBe(200);
		expect(sized.headers()['content-type']).toMatch(/^image\//);
		// The phone's hero, whatever serves it (stock host or bundled fallback), stays under 100 KB.
		expect((await sized.body()).length).toBeLessThanOrEqual(100 * 1024);
		const odd = await request.get(`${src}&w=123`);
		expect(odd.status()).toBe(400);
		expect(odd.headers()['content-type']).toContain('application/problem+json');
	});

	test('HTML leaves compressed when the client accepts it, cached pages and rendered ones alike', async ({
		request
	}) => {
		for (const path of ['/', '/contact']) {
			// What a browser sends: Brotli for a cached page, gzip for one rendered as it streams.
			const br = await request.get(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
			expect(br.status()).toBe(200);
			expect(['br', 'gzip']).toContain(br.headers()['content-encoding']);
			expect(br.headers()['vary']?.toLowerCase()).toContain('accept-encoding');
			const gzip = await request.get(path, { headers: { 'accept-encoding': 'gzip' } });
			expect(gzip.headers()['content-encoding']).toBe('gzip');
			const plain = await request.get(path, { headers: { 'accept-encoding': 'identity' } });
			expect(plain.headers()['content-encoding']).toBeUndefined();
			expect(await plain.text()).toContain('</html>');
		}
	});

	test('French typography reaches the page: narrow spaces before ?, numbers that do not break', async ({
		request
	}) => {
		const home = await (await request.get('/')).text();
		expect(home).toContain(`Combien coûte un site${NNBSP}?`);
		expect(home).toContain(`04${NBSP}78${NBSP}00${NBSP}00${NBSP}00`);
		expect(home).not.toContain('Combien coûte un site ?');
		const paysagiste = await (await request.get('/paysagiste')).text();
		expect(paysagiste).toContain('autour d’Annecy');
	});

	test('icons, the web manifest and a social card for a page without a photo', async ({ page, request }) => {
		const manifest = await (await request.get('/manifest.webmanifest')).json();
		expect(manifest.lang).toBe('fr');
		for (const icon of manifest.icons as { src: string }[])
			expect((await request.get(icon.src)).status(), icon.src).toBe(200);
		for (const path of ['/favicon.ico', '/apple-touch-icon.png'])
			expect((await request.get(path)).status(), path).toBe(200);
		await page.goto('/contact');
		const og = await page.locator('meta[property="og:image"]').getAttribute('content');
		expect(og).toMatch(/\/og-atelier\.png$/);
		// Said in words too, for who cannot see it.
		await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute(
			'content',
			/^Atelier — .{10,}/
		);
		await page.goto('/macon');
		const heroAlt = await page.locator('.hero img').first().getAttribute('alt');
		expect(heroAlt).toBeTruthy();
		await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', heroAlt!);
		await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
	});

	test('a page that does not exist says where to go', async ({ page, pageProblems }) => {
		const response = await page.goto('/une-page-qui-n-existe-pas');
		expect(response?.status()).toBe(404);
		expectConsoleNotes(pageProblems, /404/);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cette page est introuvable');
		await expect(
			page.getByRole('main').getByRole('link', { name: /démonstration d’un maçon/ })
		).toBeVisible();
		await expectNoAxeViolation(page);
	});
});
