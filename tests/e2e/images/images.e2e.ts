import { readFileSync } from 'node:fs';
import { expect, expectConsoleNotes, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';
import { fixture } from '../../helpers/fixtures';

const base = () => process.env.E2E_BASE_URL!;
const originHeader = () => ({ origin: base() });

test.beforeEach(async ({ page }) => {
	await signInAsAdmin(page);
});

test('the upload API refuses 20 MB + 1 byte with 413', async ({ page }) => {
	const tooBig = Buffer.alloc(20 * 1024 * 1024 + 1, 0);
	tooBig.set([0xff, 0xd8, 0xff, 0xe0]);
	const response = await page.request.post('/api/admin/upload', {
		multipart: { file: { name: 'big.jpg', mimeType: 'image/jpeg', buffer: tooBig } },
		headers: originHeader()
	});
	expect(response.status()).toBe(413);
	expect(response.headers()['content-type']).toContain('application/problem+json');
});

test('the upload API refuses a renamed text file (415), no file (400) and a JSON body (415)', async ({
	page
}) => {
	const renamed = await page.request.post('/api/admin/upload', {
		multipart: { file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('juste du texte') } },
		headers: originHeader()
	});
	expect(renamed.status()).toBe(415);
	const empty = await page.request.post('/api/admin/upload', {
		multipart: { other: 'x' },
		headers: originHeader()
	});
	expect(empty.status()).toBe(400);
	expect((await empty.json()).errors.file).toBeTruthy();
	const json = await page.request.post('/api/admin/upload', { data: { file: 'x' } });
	expect(json.status()).toBe(415);
});

test('an upload is stored privately and served through the proxy, never by a redirect', async ({ page }) => {
	const upload = await page.request.post('/api/admin/upload', {
		multipart: {
			file: { name: 'IMG_0001.JPG', mimeType: 'image/jpeg', buffer: readFileSync(fixture('Landscape_7.jpg')) }
		},
		headers: originHeader()
	});
	expect(upload.status()).toBe(201);
	const body = await upload.json();
	expect(body).toMatchObject({
		contentType: 'image/webp',
		stats: { width: 600, height: 450, inputFormat: 'jpeg' }
	});
	expect(body.value).toMatch(/^storage:[0-9a-f-]{36}\.webp$/);

	const put = await page.request.put('/api/admin/site-images', { data: { key: 'about', url: body.value } });
	expect(put.status()).toBe(200);
	const image = await page.request.get('/api/img/about', { maxRedirects: 0 });
	expect(image.status()).toBe(200);
	expect(image.headers()['content-type']).toBe('image/webp');
	expect(image.headers()['cache-control']).toBe('public, max-age=3300, s-maxage=3300');
	expect(image.headers()['x-robots-tag']).toBe('noindex, nofollow');
	expect((await image.body()).length).toBe(body.stats.sizeAfter);
	const again = await page.request.get('/api/img/about', {
		headers: { 'if-none-match': image.headers()['etag']! }
	});
	expect(again.status()).toBe(304);

	// The home page offers the 600 px photo at the widths it has and its own, never 800/1200/1600; its
	// versioned URL is cached for good, whatever width is asked.
	const home = await (await page.request.get('/')).text();
	const tag = /<img[^>]*src="(\/api\/img\/about\?v=[^"]+)"[^>]*>/.exec(home);
	expect(tag).not.toBeNull();
	const src = tag![1]!.replaceAll('&amp;', '&');
	const srcset = /srcset="([^"]+)"/.exec(tag![0])![1]!.replaceAll('&amp;', '&');
	expect(srcset).toBe(`${src}&w=480 480w, ${src} 600w`);
	for (const url of [src, `${src}&w=480`, `${src}&w=800`]) {
		const versioned = await page.request.get(url);
		expect(versioned.status(), url).toBe(200);
		expect(versioned.headers()['cache-control'], url).toBe('public, max-age=31536000, immutable');
	}

	// The private file itself is out of reach without a valid signature.
	const naked = await page.request.get(`/storage/private-gallery/${body.path}`);
	expect(naked.status()).toBe(403);
	expect((await page.request.get('/api/img/nope')).status()).toBe(404);
});

/** Opens a page and waits until its scripts run: these tests drive what only JavaScript does (XHR upload). */
async function gotoHydrated(page: import('@playwright/test').Page, url: string) {
	await page.goto(url);
	await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

test('the admin replaces an image on /admin/images by upload, then sees the stats', async ({
	page,
	pageProblems
}) => {
	await gotoHydrated(page, '/admin/images');
	// Each page's section is named by its heading: every id aria-labelledby lists exists (« Démo maçon » had a space).
	const names = await page.locator('section[aria-labelledby]').evaluateAll((sections) =>
		sections.map((s) =>
			s
				.getAttribute('aria-labelledby')!
				.split(/\s+/)
				.map((id) => document.getElementById(id)?.textContent ?? null)
				.join(' ')
		)
	);
	expect(names.length).toBeGreaterThan(2);
	expect(names).toContain('Démo maçon');
	expect(names.filter((name) => name.includes('null'))).toEqual([]);
	const card = page.getByRole('article').filter({ has: page.getByText('service_2', { exact: true }) });
	await card.locator('input[type=file]').setInputFiles(fixture('Landscape_4.jpg'));
	await expect(card.getByRole('status')).toContainText('Optimisée', { timeout: 20_000 }); // sharp under load
	await expect(card.getByRole('status')).toContainText('600×450');
	await expect(card).toContainText('stockage privé');
	const img = card.getByRole('img');
	await expect(img).toHaveAttribute('src', /\/api\/img\/service_2\?v=/);
	// The new address loads lazily and, on a busy machine, after the status already says « Optimisée »: wait for it.
	await img.scrollIntoViewIfNeeded();
	await expect
		.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), {
			timeout: 15_000
		})
		.toBeGreaterThan(0);

	await card.getByLabel('Ou une adresse d’image').fill('https://exemple.com/photo.jpg');
	await card.getByRole('button', { name: 'Utiliser' }).click();
	await expect(card.getByRole('alert')).toContainText('n’est pas autorisé');
	expectConsoleNotes(pageProblems, /status of 400/);

	await card.getByRole('button', { name: 'Revenir à l’image par défaut' }).click();
	await expect(card).toContainText('image par défaut');
});

test('an SVG file is refused on the admin page with a French message', async ({ page, pageProblems }) => {
	await gotoHydrated(page, '/admin/images');
	const card = page.getByRole('article').filter({ has: page.getByText('service_3', { exact: true }) });
	await card.locator('input[type=file]').setInputFiles({
		name: 'logo.svg',
		mimeType: 'image/svg+xml',
		buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')
	});
	await expect(card.getByRole('alert')).toContainText('Type de fichier refusé');
	expectConsoleNotes(pageProblems, /status of 415/);
});

test('without JavaScript, /admin/images replaces an image through its form action', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await signInAsAdmin(page);
	await page.goto('/admin/images');
	const card = page
		.getByRole('article')
		.filter({ has: page.getByText('paysagiste_gallery_2', { exact: true }) });
	await card.locator('input[type=file]').setInputFiles(fixture('Landscape_8.jpg'));
	await card.getByRole('button', { name: 'Téléverser' }).click();
	const updated = page
		.getByRole('article')
		.filter({ has: page.getByText('paysagiste_gallery_2', { exact: true }) });
	await expect(updated).toContainText('stockage privé');
	await context.close();
});
