/**
 * Issue "Insights": visitors browse as people do — one from a search engine with a campaign who sends a devis, one
 * who comes directly — among a bot, a prefetch, a HEAD and a browser that asks not to be tracked (Sec-GPC); the
 * dashboard then shows exactly the people's figures and the lead shows where it came from. Public pages set no
 * cookie and use no storage. The dashboard at 360 and 1280 px: axe clean, no horizontal scroll.
 */
import type { Browser } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { sessionCookieFor } from '../support/accounts';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { serverEntry, startIsolatedServer, startServer, type RunningServer } from '../support/server';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { sendDevisAsAPerson } from '../support/devis';
import { keepScreenshot } from '../support/screenshots';

test.describe.configure({ mode: 'serial' });

/** What a person's browser says (Playwright's own says HeadlessChrome, which the bot list rightly refuses). */
const DESKTOP =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const ADMIN = { name: 'Patron', email: 'patron@atelier.test', password: 'une phrase de passe solide' };

let server: RunningServer;
let smtp: RunningSmtp;
test.beforeAll(async () => {
	smtp = await startSmtp();
	server = await startIsolatedServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: ADMIN.email });
	const setup = await fetch(`${server.url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(ADMIN)
	});
	expect(setup.status).toBe(201);
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await smtp.close();
});

async function adminPage(browser: Browser, width: number) {
	const cookie = await sessionCookieFor(server.url, ADMIN);
	const context = await browser.newContext({ viewport: { width, height: 900 } });
	await context.addCookies([
		{ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1), url: server.url }
	]);
	return context.newPage();
}

test('people are counted, bots, prefetches and Sec-GPC are not; the lead says where it came from', async ({
	browser
}) => {
	test.setTimeout(90_000);
	// Someone searching: a search engine's page, a campaign link, then the quote form.
	const searcher = await browser.newContext({ userAgent: DESKTOP });
	const page = await searcher.newPage();
	await page.goto(`${server.url}/macon?utm_source=google&utm_medium=cpc&utm_campaign=printemps`, {
		referer: 'https://www.google.fr/search?q=macon+villefranche'
	});
	await page.goto(`${server.url}/devis`);
	await sendDevisAsAPerson(page, {
		name: 'Inès Garnier',
		email: 'ines@exemple.fr',
		phone: '06 98 76 54 32',
		city: 'Anse',
		projectType: 'facade',
		message: 'Un mur de clôture en pierre.'
	});
	await expect(page.getByRole('status')).toContainText('Merci');
	// Public pages keep nothing in the browser.
	expect(await searcher.cookies()).toEqual([]);
	expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
	await searcher.close();

	// Someone who typed the address, on a phone: two pages.
	const direct = await browser.newContext({ userAgent: PHONE });
	const phone = await direct.newPage();
	await phone.goto(`${server.url}/`);
	await phone.goto(`${server.url}/paysagiste`);
	// Back home: the page cache answers it this time (before SvelteKit) — a 304 when the browser revalidates the copy
	// it holds by its ETag — and it counts all the same.
	const again = await phone.goto(`${server.url}/`);
	expect(again?.headers()['x-page-cache']).toBe('HIT');
	await direct.close();

	// Not people, or people who asked not to be counted.
	const get = (headers: Record<string, string>, method = 'GET') =>
		fetch(`${server.url}/macon`, { method, headers: { 'user-agent': DESKTOP, ...headers } });
	expect(
		(await get({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }))
			.status
	).toBe(200);
	expect((await get({ 'sec-purpose': 'prefetch' })).status).toBe(200);
	expect((await get({ 'sec-gpc': '1' })).status).toBe(200);
	expect((await get({}, 'HEAD')).status).toBe(200);

	// Within a write (every 5 s), the dashboard shows the people: 5 pages, 2 visitors, 2 visits, Google for one (its
	// campaign's utm_source, named as people name it).
	const admin = await adminPage(browser, 1280);
	const headline = (label: string) => admin.getByRole('listitem').filter({ hasText: label }).first();
	await expect
		.poll(
			async () => {
				await admin.goto(`${server.url}/admin`);
				return headline('Pages vues').textContent();
			},
			{ timeout: 30_000, intervals: [1000] }
		)
		.toMatch(/Pages vues\s*5\s*▲ nouveau/);
	await expect(headline('Visiteurs')).toContainText(/Visiteurs\s*2/);
	await expect(headline('Visites')).toContainText(/Visites\s*2/);
	const table = (header: string) =>
		admin.getByRole('table').filter({ has: admin.getByRole('columnheader', { name: header, exact: true }) });
	const pages = table('Page');
	await expect(pages.getByRole('row', { name: /^\/ 2 1$/ })).toHaveCount(1);
	for (const path of ['/macon', '/devis', '/paysagiste'])
		await expect(
			pages.getByRole('row', { name: new RegExp(`^${path.replace('/', '\\/')} 1 1$`) })
		).toHaveCount(1);
	// Each visit begins once: the campaign's landing, and the phone's first page.
	const entries = table('Page d’entrée');
	await expect(entries.getByRole('row')).toHaveCount(3);
	for (const name of ['/ 1', '/macon 1'])
		await expect(entries.getByRole('row', { name, exact: true })).toHaveCount(1);
	// Every page of a visit counts under its source: /devis is the searcher's second page.
	const sources = table('Source').first();
	await expect(sources.getByRole('row', { name: 'Accès direct 1 3' })).toHaveCount(1);
	await expect(sources.getByRole('row', { name: 'Google 1 2' })).toHaveCount(1);
	await expect(table('Campagne').getByRole('row', { name: 'printemps cpc 1 2' })).toHaveCount(1);
	await expect(table('Appareil').getByRole('row', { name: 'Ordinateur 1 2' })).toHaveCount(1);
	await expect(table('Appareil').getByRole('row', { name: 'Téléphone 1 3' })).toHaveCount(1);
	const leadSources = admin.getByRole('table', { name: 'Demandes par source sur la période' });
	await expect(leadSources.getByRole('row', { name: 'Google 1' })).toHaveCount(1);
	await expect(admin.getByRole('row', { name: /Visites de la page candidature 0/ })).toHaveCount(1);

	// A source clicked narrows the whole dashboard, in the URL: the figures change, the link can be shared.
	await sources.getByRole('link', { name: 'Google' }).click();
	await expect(admin).toHaveURL(/\?periode=30j&source=Google$/);
	await expect(admin.getByRole('group', { name: 'Filtres' })).toContainText('Source « Google »');
	await expect(headline('Pages vues')).toContainText(/Pages vues\s*2/);
	await expect(headline('Visiteurs')).toContainText(/Visiteurs\s*1/);
	await expect(pages.getByRole('row')).toHaveCount(3);
	for (const name of ['/devis 1 1', '/macon 1 1'])
		await expect(pages.getByRole('row', { name, exact: true })).toHaveCount(1);
	await expect(table('Appareil').getByRole('row', { name: 'Téléphone' })).toHaveCount(0);
	await expect(leadSources.getByRole('row')).toHaveCount(2);
	await expect(leadSources.getByRole('row', { name: 'Google 1', exact: true })).toHaveCount(1);
	const shared = await adminPage(browser, 360);
	await shared.goto(admin.url());
	await expect(shared.getByRole('listitem').filter({ hasText: 'Pages vues' }).first()).toContainText(
		/Pages vues\s*2/
	);
	// A device on top of it, then the source taken off: the phone's three pages, with no lead (a lead keeps no
	// device).
	await table('Appareil').getByRole('link', { name: 'Ordinateur' }).click();
	await expect(admin).toHaveURL(/source=Google&appareil=desktop$/);
	await admin.getByRole('link', { name: 'Retirer le filtre source' }).click();
	await expect(admin).toHaveURL(/\?periode=30j&appareil=desktop$/);
	await expect(headline('Pages vues')).toContainText(/Pages vues\s*2/);
	await expect(admin.getByText('le filtre d’appareil ne s’y applique pas')).toBeVisible();
	await admin.getByRole('link', { name: 'Tout retirer' }).click();
	await expect(headline('Pages vues')).toContainText(/Pages vues\s*5/);
	await expect(admin.getByRole('group', { name: 'Filtres' })).toHaveCount(0);
	const narrowedCsv = await admin.request.get(
		`${server.url}/admin/statistiques.csv?periode=30j&source=google.fr`
	);
	expect(await narrowedCsv.text()).toMatch(/\d{4}-\d{2}-\d{2};2;1\r\n$/);

	// The lead: the search engine and the campaign, and the page it was sent from.
	await admin.goto(`${server.url}/admin/demandes`);
	await expect(admin.getByRole('row', { name: /Inès Garnier/ })).toContainText(
		'Venue de google.fr · campagne printemps (google, cpc)'
	);
	await admin.getByRole('link', { name: 'Inès Garnier' }).click();
	await expect(admin.getByText('google.fr · campagne printemps (google, cpc)')).toBeVisible();
	await expect(admin.getByText('Envoyée depuis /devis')).toBeVisible();
	const csv = await admin.request.get(`${server.url}/admin/demandes/export.csv`);
	expect(await csv.text()).toMatch(/;\/devis;google\.fr;google;cpc;printemps\r\n/);
	const daily = await admin.request.get(`${server.url}/admin/statistiques.csv?periode=30j`);
	expect(daily.headers()['content-type']).toContain('text/csv');
	expect(await daily.text()).toMatch(/\d{4}-\d{2}-\d{2};5;2\r\n$/);
});

test('public pages answer without Set-Cookie', async () => {
	for (const path of [
		'/',
		'/macon',
		'/paysagiste',
		'/devis',
		'/contact',
		'/candidature',
		'/mentions-legales'
	]) {
		const response = await fetch(`${server.url}${path}`, { headers: { 'user-agent': DESKTOP } });
		expect(response.status, path).toBe(200);
		expect(response.headers.getSetCookie(), path).toEqual([]);
	}
});

for (const width of [360, 1280])
	test(`the dashboard at ${width} px: axe finds nothing, no horizontal scroll, every chart has its table`, async ({
		browser
	}) => {
		const page = await adminPage(browser, width);
		for (const period of ['30j', '90j', '12m']) {
			await page.goto(`${server.url}/admin?periode=${period}`);
			await expect(
				page.getByRole('link', { name: period === '12m' ? '12 mois' : period.replace('j', ' jours') })
			).toHaveAttribute('aria-current', 'page');
		}
		await expectNoAxeViolation(page);
		await expectNoHorizontalScroll(page);
		for (const caption of [
			'Pages vues et visiteurs par jour',
			'Demandes reçues par semaine',
			'Modules terminés par semaine'
		])
			await expect(page.getByRole('table', { name: caption })).toHaveCount(1);
		await keepScreenshot(page, `experience-dashboard-sources-${width}.png`);
		// Narrowed by two filters: the filters' bar and its links, on a phone too.
		await page.goto(`${server.url}/admin?periode=30j&source=google.fr&appareil=mobile`);
		await expect(page.getByRole('group', { name: 'Filtres' }).getByRole('link')).toHaveCount(3);
		await expectNoAxeViolation(page);
		await expectNoHorizontalScroll(page);
		await page.screenshot({ path: `test-results/dashboard-filtered-${width}.png`, fullPage: true });
	});

test('a stopping server writes its last counts, and npm run stats prints the last 30 days', async () => {
	const own = await startServer({ DATABASE_URL: '' });
	for (const referer of ['https://www.qwant.com/', undefined])
		expect(
			(
				await fetch(`${own.url}/macon`, {
					headers: { 'user-agent': DESKTOP, ...(referer ? { referer } : {}) }
				})
			).status
		).toBe(200);
	// Stopped at once, before the 5 s write: the shutdown writes what was counted.
	expect(await own.stop()).toBe(0);
	const stats = spawnSync(process.execPath, [path.join(path.dirname(serverEntry), 'stats.js')], {
		env: { ...process.env, DATABASE_URL: '', DATA_DIR: own.dataDir },
		encoding: 'utf8',
		timeout: 60_000
	});
	expect(stats.stderr).toBe('');
	expect(stats.status).toBe(0);
	expect(stats.stdout).toMatch(/^total\s+2\s+1$/m);
	expect(stats.stdout).toMatch(/^\s+2 {2}\/macon$/m);
	// One visit from qwant.com (« Qwant »): the page seen again without a referrer is a page of that visit.
	expect(stats.stdout).toMatch(/^\s+1\s+2 {2}Qwant$/m);
	expect(stats.stdout).not.toContain('(direct)');
});
