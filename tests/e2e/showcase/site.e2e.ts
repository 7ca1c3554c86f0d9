/**
 * The masonry business's site (issue "Showcase mode", point 8): a crawler from / reaches every sitemap page with
 * no broken internal link or image; JSON-LD on every page type; the quote request over real SMTP; the consent
 * banner and the map; axe and no horizontal scroll at 360, 768 and 1280 px on every page type; the page cache.
 */
import { buttonContrasts } from '../support/contrast';
import { expect, expectConsoleNotes, test } from '../support/fixtures';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { TEST_WAITS } from '../support/waits';

const MIN_FILL_MS = TEST_WAITS.formMinFillMs;

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let smtp: RunningSmtp;
let base: string;
test.beforeAll(async () => {
	smtp = await startSmtp();
	server = await startIsolatedServer({
		SITE_MODE: 'showcase',
		SMTP_URL: smtp.url,
		ADMIN_EMAIL: 'chantiers@delorme.test',
		MAIL_FROM: 'Maçonnerie Delorme <site@delorme.test>'
	});
	base = server.url;
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await smtp.close();
});

const MAP_HOST = 'https://www.openstreetmap.org';
const PAGE_TYPES = {
	home: '/',
	services: '/services',
	service: '/services/facades-et-enduits',
	areas: '/secteurs',
	area: '/secteurs/cremieu',
	blog: '/blog',
	article: '/blog/mur-de-soutenement-regles',
	partners: '/partenaires',
	realisations: '/realisations',
	contact: '/contact',
	legal: '/mentions-legales',
	notFound: '/services/ce-service-n-existe-pas'
};

async function sitemapPaths(): Promise<string[]> {
	const xml = await (await fetch(`${base}/sitemap.xml`)).text();
	return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
}

/** Every internal URL a page's HTML points at: links, images (src and each srcset candidate), stylesheets. */
function referencesIn(html: string, pageUrl: string): { links: string[]; assets: string[] } {
	const resolve = (value: string) => new URL(value.replaceAll('&amp;', '&'), pageUrl);
	const internal = (url: URL) => url.origin === base;
	const links = [...html.matchAll(/<a [^>]*href="([^"#][^"]*)"/g)]
		.map((m) => resolve(m[1]!))
		.filter(internal)
		.map((u) => u.pathname + u.search);
	const srcs = [...html.matchAll(/<(?:img|source)[^>]* (?:src|srcset)="([^"]+)"/g)].flatMap((m) =>
		m[1]!.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!)
	);
	const styles = [...html.matchAll(/<link [^>]*href="([^"]+)"/g)]
		.map((m) => m[1]!)
		.filter((href) => !href.startsWith('http') || href.startsWith(base));
	const assets = [...srcs, ...styles]
		.map(resolve)
		.filter(internal)
		.map((u) => u.pathname + u.search);
	return { links, assets };
}

test('every page of the sitemap names itself as its canonical address', async () => {
	const xml = await (await fetch(`${base}/sitemap.xml`)).text();
	const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
	expect(urls.length).toBeGreaterThanOrEqual(28);
	const wrong: string[] = [];
	for (const url of urls) {
		const html = await (await fetch(base + new URL(url).pathname)).text();
		const canonical = [...html.matchAll(/<link rel="canonical" href="([^"]+)"/g)].map((m) => m[1]);
		if (canonical.length !== 1 || canonical[0] !== url)
			wrong.push(`${url}: ${canonical.join(', ') || 'none'}`);
	}
	expect(wrong).toEqual([]);
});

test('a crawler from / reaches every sitemap page, and finds no broken internal link or image', async () => {
	test.setTimeout(120_000);
	const pages = new Map<string, number>();
	const assets = new Map<string, string[]>();
	const queue = ['/'];
	while (queue.length) {
		const path = queue.shift()!;
		if (pages.has(path)) continue;
		const response = await fetch(base + path, { redirect: 'manual' });
		pages.set(path, response.status);
		if (!(response.headers.get('content-type') ?? '').includes('text/html')) continue;
		const found = referencesIn(await response.text(), base + path);
		for (const link of found.links) if (!pages.has(link) && !queue.includes(link)) queue.push(link);
		for (const asset of found.assets) assets.set(asset, [...(assets.get(asset) ?? []), path]);
	}
	const broken = [...pages].filter(([, status]) => status !== 200);
	expect(broken, 'internal links that do not answer 200').toEqual([]);
	const sitemap = await sitemapPaths();
	expect(sitemap.length).toBeGreaterThanOrEqual(28);
	expect(
		sitemap.filter((path) => !pages.has(path)),
		'sitemap pages the crawler never reached'
	).toEqual([]);
	expect([...pages.keys()].filter((p) => !p.startsWith('/api/')).length).toBeGreaterThanOrEqual(
		sitemap.length
	);

	let images = 0;
	for (const [asset, from] of assets) {
		const response = await fetch(base + asset);
		const type = response.headers.get('content-type') ?? '';
		expect(response.status, `${asset} (from ${from[0]})`).toBe(200);
		if (type.startsWith('image/')) {
			images++;
			expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
		}
	}
	// Every photo in three widths and three formats.
	expect(images).toBeGreaterThan(60);
});

test('sitemap: absolute URLs on ORIGIN with the content’s last-modified dates; robots names it', async () => {
	const xml = await (await fetch(`${base}/sitemap.xml`)).text();
	const urls = [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>(\d{4}-\d{2}-\d{2})<\/lastmod><\/url>/g)];
	expect(urls.length).toBe((await sitemapPaths()).length);
	for (const [, loc] of urls) expect(loc!.startsWith(`${base}/`)).toBe(true);
	expect(urls.find(([, loc]) => loc === `${base}/blog/enduit-chaux-mur-pise`)?.[2]).toBe('2026-03-14');
	const robots = await (await fetch(`${base}/robots.txt`)).text();
	expect(robots).toBe(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${base}/sitemap.xml\n`);
});

test('showcase pages come from the page cache; contact, with its one-time form token, does not', async () => {
	for (const path of [PAGE_TYPES.service, PAGE_TYPES.article]) {
		await fetch(base + path);
		const again = await fetch(base + path);
		expect(again.headers.get('x-page-cache'), path).toBe('HIT');
	}
	expect((await fetch(base + PAGE_TYPES.contact)).headers.get('x-page-cache')).toBeNull();
});

test('the CSP names no CMS, storage or payment host, and the map host only on the contact page', async () => {
	const policy = async (path: string) => (await fetch(base + path)).headers.get('content-security-policy')!;
	const contact = await policy('/contact');
	expect(contact).toContain(`frame-src 'self' ${MAP_HOST}`);
	for (const path of ['/', PAGE_TYPES.service, PAGE_TYPES.notFound]) {
		const csp = await policy(path);
		expect(csp, path).not.toContain('openstreetmap');
		expect(csp, path).not.toMatch(/stripe/i);
	}
});

test('JSON-LD parses on every page type and carries the business, services, areas, articles and breadcrumbs', async ({
	page
}) => {
	const graphOf = async (path: string) => {
		await page.goto(base + path);
		const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
		expect(blocks.length, path).toBe(1);
		return (JSON.parse(blocks[0]!) as { '@graph': Record<string, unknown>[] })['@graph'];
	};
	const node = (graph: Record<string, unknown>[], type: string) => graph.find((n) => n['@type'] === type);

	for (const path of ['/', '/contact']) {
		const business = node(await graphOf(path), 'GeneralContractor') as {
			name: string;
			telephone: string;
			address: unknown;
			geo: unknown;
			areaServed: { '@type': string }[];
			openingHoursSpecification: unknown[];
		};
		expect(business.name).toBe('Maçonnerie Delorme');
		expect(business.address).toMatchObject({ '@type': 'PostalAddress', postalCode: '38300' });
		expect(business.geo).toMatchObject({ '@type': 'GeoCoordinates', latitude: 45.5858 });
		expect(business.areaServed.filter((a) => a['@type'] === 'City').length).toBeGreaterThanOrEqual(8);
		expect(business.openingHoursSpecification[0]).toMatchObject({ opens: '07:30', closes: '18:00' });
		expect(business.telephone).toBe('+33465713838');
	}
	expect(node(await graphOf('/'), 'BreadcrumbList')).toBeUndefined();

	const service = await graphOf(PAGE_TYPES.service);
	expect(node(service, 'Service')).toMatchObject({
		name: 'Façades et enduits',
		provider: { name: 'Maçonnerie Delorme' }
	});
	const area = await graphOf(PAGE_TYPES.area);
	expect(node(area, 'Service')).toMatchObject({ areaServed: { '@type': 'City', name: 'Crémieu' } });
	const article = await graphOf(PAGE_TYPES.article);
	expect(node(article, 'Article')).toMatchObject({
		datePublished: '2026-05-06',
		author: { '@type': 'Person', name: 'Julien Delorme' }
	});
	expect((node(article, 'Article') as Record<string, string>).image).toMatch(
		/^http:\/\/127\.0\.0\.1:\d+\/.*\.jpe?g$/
	);

	for (const path of [
		PAGE_TYPES.service,
		PAGE_TYPES.area,
		PAGE_TYPES.article,
		'/partenaires',
		'/contact',
		'/cgv'
	]) {
		const crumbs = node(await graphOf(path), 'BreadcrumbList') as { itemListElement: { item: string }[] };
		expect(crumbs.itemListElement[0]!.item, path).toBe(`${base}/`);
		expect(crumbs.itemListElement.at(-1)!.item, path).toBe(`${base}${path}`);
	}
	// Title, description, canonical and Open Graph, page by page.
	await page.goto(base + PAGE_TYPES.article);
	expect(await page.title()).toContain('Mur de soutènement');
	await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', base + PAGE_TYPES.article);
	await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
	await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\.jpe?g$/);
	await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', /.{10,}/);
	await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{50,}/);
});

test('the quote request goes to the business over SMTP, signed by it, with nothing of the platform', async ({
	request
}) => {
	smtp.received.length = 0;
	const response = await request.post(`${base}/api/contact`, {
		data: {
			name: 'Claire Martin',
			email: 'claire@exemple.fr',
			phone: '06 11 22 33 44',
			city: 'Crémieu',
			projectType: 'facade',
			message: 'Enduit à la chaux sur une façade en pierre, environ 80 m².'
		}
	});
	expect(response.status()).toBe(201);
	const mails = await smtp.waitFor(2);
	const notification = mails.find((m) => m.envelopeTo[0] === 'chantiers@delorme.test')!;
	expect(notification.parsed.subject).toBe('Demande de devis maçonnerie de Claire Martin (Crémieu)');
	expect(notification.parsed.replyTo?.[0]).toMatchObject({ address: 'claire@exemple.fr' });
	expect(notification.parsed.text).toContain('Façade ou enduit');
	expect(notification.parsed.text).toContain('Maçonnerie Delorme SARL');
	const ack = mails.find((m) => m.envelopeTo[0] === 'claire@exemple.fr')!;
	expect(ack.parsed.html).toContain('L’équipe Maçonnerie Delorme');
	expect(ack.parsed.text).toContain('04 65 71 38 38');
	for (const mail of mails) {
		const all = `${mail.parsed.subject}\n${mail.parsed.text}\n${mail.parsed.html}`;
		expect(all).not.toMatch(/Atelier|\/admin|audit/i);
	}
	// CONTRACT §3's contact body (no city, no project type) is a quote request too; a bad project type is not.
	smtp.received.length = 0;
	const contactBody = await request.post(`${base}/api/contact`, {
		data: { name: 'Paul Girard', email: 'paul@exemple.fr', message: 'Bonjour, un muret à reprendre svp.' }
	});
	expect(contactBody.status()).toBe(201);
	const [quote] = await smtp
		.waitFor(2)
		.then((all) => all.filter((m) => m.envelopeTo[0] === 'chantiers@delorme.test'));
	expect(quote!.parsed.subject).toBe('Demande de devis maçonnerie de Paul Girard');
	expect(quote!.parsed.text).toContain('un muret à reprendre');
	const badType = await request.post(`${base}/api/contact`, {
		data: {
			name: 'Paul Girard',
			email: 'paul@exemple.fr',
			message: 'Bonjour, autre chose.',
			projectType: 'piscine'
		}
	});
	expect(badType.status()).toBe(400);
	expect(Object.keys((await badType.json()).errors)).toEqual(['projectType']);
});

test('a visitor asks for a quote on /contact: the form posts, the confirmation shows, the business is e-mailed', async ({
	page
}) => {
	smtp.received.length = 0;
	await page.goto(base + '/contact');
	await page.getByLabel('Nom', { exact: true }).fill('Luc Bernard');
	await page.getByLabel('Adresse e-mail').fill('luc@exemple.fr');
	await page.getByLabel('Téléphone').fill('06 98 76 54 32');
	await page.getByLabel('Commune du chantier').fill('Morestel');
	// Nothing chosen in advance: the visitor says what the project is.
	await expect(page.getByLabel('Type de projet')).toHaveValue('');
	await page.getByLabel('Type de projet').selectOption('terrasse');
	await page
		.getByLabel('Décrivez vos travaux')
		.fill('Une terrasse de 25 m² en dalles de pierre, côté jardin.');
	// The time trap: a person takes a few seconds to fill a form.
	await page.waitForTimeout(MIN_FILL_MS + 200);
	await page.getByRole('button', { name: 'Envoyer ma demande de devis' }).click();
	await expect(page.getByRole('status')).toContainText('Merci');
	const mails = await smtp.waitFor(2);
	expect(mails.find((m) => m.envelopeTo[0] === 'chantiers@delorme.test')!.parsed.subject).toBe(
		'Demande de devis maçonnerie de Luc Bernard (Morestel)'
	);
});

test.describe('consent banner and map', () => {
	test('asked only where consent is needed, as a bar under a fifth of a phone screen', async ({
		browser
	}) => {
		const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
		const page = await context.newPage();
		const banner = page.getByRole('region', { name: 'Vos choix sur les cookies' });
		for (const path of ['/', '/realisations', '/services/facades-et-enduits']) {
			await page.goto(base + path);
			await page.locator('html[data-hydrated]').waitFor();
			await expect(banner, path).toBeHidden();
		}
		await page.goto(base + '/contact');
		await expect(banner).toBeVisible();
		const box = (await banner.boundingBox())!;
		expect(box.height).toBeLessThanOrEqual(0.2 * 740);
		expect(box.y + box.height).toBeCloseTo(740, 0);
		await expectNoAxeViolation(page);
		await page.screenshot({ path: test.info().outputPath('consentement-360.png') });
		await context.close();
	});

	test('refuse: no map request, the key is set; the choice survives a reload; "Gérer les cookies" reopens', async ({
		page
	}) => {
		const mapRequests: string[] = [];
		await page.route(`${MAP_HOST}/**`, (route) => {
			mapRequests.push(route.request().url());
			return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>carte</p>' });
		});
		await page.goto(base + '/contact');
		const banner = page.getByRole('region', { name: 'Vos choix sur les cookies' });
		await expect(banner).toBeVisible();
		const refuse = banner.getByRole('button', { name: 'Refuser' });
		const accept = banner.getByRole('button', { name: 'Accepter' });
		// Equally prominent: same size, same colours.
		const look = (b: typeof refuse) =>
			b.evaluate((e) => {
				const s = getComputedStyle(e);
				return [
					e.getBoundingClientRect().width,
					e.getBoundingClientRect().height,
					s.color,
					s.backgroundColor,
					s.fontSize
				];
			});
		expect(await look(refuse)).toEqual(await look(accept));
		await refuse.click();
		await expect(banner).toBeHidden();
		const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('vitrine-consentement')!));
		expect(stored.choice).toBe('refused');
		expect(Date.now() - stored.at).toBeLessThan(60_000);
		await page.reload();
		await page.locator('html[data-hydrated]').waitFor();
		await expect(banner).toBeHidden();
		await expect(page.locator('iframe')).toHaveCount(0);
		expect(mapRequests).toEqual([]);
		// Platform mode's keys are not this one.
		expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['vitrine-consentement']);
		await page.getByRole('link', { name: 'Gérer les cookies' }).click();
		await expect(banner).toBeVisible();
		await expect(banner.getByRole('button', { name: 'Refuser' })).toBeFocused();
	});

	test('accept: the map loads, and still does after a reload; a choice older than six months is asked again', async ({
		page
	}) => {
		let mapRequests = 0;
		await page.route(`${MAP_HOST}/**`, (route) => {
			mapRequests++;
			return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>carte</p>' });
		});
		await page.goto(base + '/contact');
		await expect(page.locator('iframe')).toHaveCount(0);
		await page.getByRole('button', { name: 'Accepter' }).click();
		await expect(page.locator(`iframe[src^="${MAP_HOST}/export/embed.html"]`)).toBeVisible();
		await expect.poll(() => mapRequests).toBe(1);
		await page.reload();
		await expect(page.locator('iframe')).toBeVisible();
		await expect(page.getByRole('region', { name: 'Vos choix sur les cookies' })).toBeHidden();
		await page.evaluate(() =>
			localStorage.setItem(
				'vitrine-consentement',
				JSON.stringify({ choice: 'accepted', at: Date.now() - 184 * 24 * 3600 * 1000 })
			)
		);
		await page.reload();
		await expect(page.getByRole('region', { name: 'Vos choix sur les cookies' })).toBeVisible();
		await expect(page.locator('iframe')).toHaveCount(0);
	});

	test('without JavaScript: no banner, no map, a plain link to it; the menu and the gallery filter still work', async ({
		browser
	}) => {
		const context = await browser.newContext({
			javaScriptEnabled: false,
			viewport: { width: 360, height: 740 }
		});
		const page = await context.newPage();
		let mapRequests = 0;
		await page.route(`${MAP_HOST}/**`, (route) => (mapRequests++, route.abort()));
		await page.goto(base + '/contact');
		await expect(page.getByRole('region', { name: 'Vos choix sur les cookies' })).toHaveCount(0);
		await expect(page.locator('iframe')).toHaveCount(0);
		await expect(page.getByRole('link', { name: 'Voir l’adresse sur OpenStreetMap' })).toBeVisible();
		const menu = page.getByRole('navigation', { name: 'Navigation principale' });
		await expect(menu.getByRole('link', { name: 'Réalisations' })).toBeHidden();
		await page.getByText('Menu', { exact: true }).click();
		await menu.getByRole('link', { name: 'Réalisations' }).click();
		await expect(page).toHaveURL(`${base}/realisations`);
		// The gallery's filter needs no script either.
		await page.getByText(/^Terrasses/).click();
		await expect(page.locator('.masonry > li:visible')).toHaveCount(2);
		expect(mapRequests).toBe(0);
		await context.close();
	});
});

test('réalisations: the filter narrows the gallery; the lightbox opens, moves, closes on Escape and gives focus back', async ({
	page
}) => {
	await page.goto(base + '/realisations');
	await page.locator('html[data-hydrated]').waitFor();
	const items = page.locator('.masonry > li:visible');
	const all = await items.count();
	expect(all).toBeGreaterThanOrEqual(10);
	await page.getByText(/^Terrasses/).click();
	await expect(page.getByRole('radio', { name: /^Terrasses/ })).toBeChecked();
	await expect(items).toHaveCount(2);
	// The lightbox moves within what the filter shows.
	await items.first().getByRole('link').click();
	await expect(page.getByRole('dialog', { name: 'Photo agrandie' }).getByText('1 / 2')).toBeVisible();
	await page.keyboard.press('Escape');
	await page.getByText(/^Tout/).click();
	await expect(items).toHaveCount(all);

	const first = items.first().getByRole('link');
	await first.click();
	const dialog = page.getByRole('dialog', { name: 'Photo agrandie' });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByText(`1 / ${all}`)).toBeVisible();
	await page.keyboard.press('ArrowRight');
	await expect(dialog.getByText(`2 / ${all}`)).toBeVisible();
	await dialog.getByRole('button', { name: 'Précédente' }).click();
	await dialog.getByRole('button', { name: 'Précédente' }).click();
	await expect(dialog.getByText(`${all} / ${all}`)).toBeVisible();
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();
	await expect(first).toBeFocused();
});

test('every button of every sitemap page is readable on its ground (contrast at least 4.5:1)', async ({
	page
}) => {
	test.setTimeout(90_000);
	for (const path of await sitemapPaths()) {
		await page.goto(base + path);
		const ratios = await buttonContrasts(page);
		for (const { label, ratio } of ratios) expect(ratio, `${path}: « ${label} »`).toBeGreaterThanOrEqual(4.5);
	}
	// The call-to-action band's buttons (the phone number, once drawn in the band's own colour) are among them.
	await page.goto(base + '/');
	expect(await page.locator('.cta-band a.button').count()).toBeGreaterThanOrEqual(2);
});

for (const width of [360, 768, 1280]) {
	test(`every page type at ${width}px: axe finds nothing, no horizontal scroll, every image loads`, async ({
		page,
		pageProblems
	}) => {
		test.setTimeout(90_000);
		await page.setViewportSize({ width, height: 800 });
		for (const [type, path] of Object.entries(PAGE_TYPES)) {
			const response = await page.goto(base + path);
			expect(response?.status(), type).toBe(type === 'notFound' ? 404 : 200);
			await page.locator('html[data-hydrated]').waitFor();
			// The banner comes on the one page that needs consent (the map): decided there, so that it covers
			// nothing axe checks after (it is checked with it first).
			if (type === 'contact') {
				await expectNoAxeViolation(page);
				await page.getByRole('button', { name: 'Refuser' }).click();
			}
			await expectNoHorizontalScroll(page);
			await expectNoAxeViolation(page);
			const images = page.locator('img');
			for (let i = 0; i < (await images.count()); i++) {
				if (!(await images.nth(i).isVisible())) continue;
				await images.nth(i).scrollIntoViewIfNeeded();
				await expect
					.poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
					.toBe(true);
			}
		}
		expectConsoleNotes(pageProblems, /404 \(Not Found\)/);
	});
}
