/**
 * Issue "Experience": what a visitor, a member and an admin see on a phone (360), a tablet (768) and a desktop
 * (1280) — the header's menu, the demos' ribbon and call bar, a form's confirmation in view, the admin's shell —
 * plus the wire-level promises: srcset widths from the proxy, compressed HTML, typography, icons.
 */
import { expect, expectConsoleNotes, test } from '../support/fixtures';
import { PASSWORD, register, signInAsAdmin } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { MIN_FILL_MS } from '../../../src/lib/server/abuse/form-token';

const WIDTHS = [360, 768, 1280] as const;
const NNBSP = '\u202F';
const NBSP = '\u00A0';

test.describe('the public header', () => {
	for (const width of WIDTHS) {
		test(`at ${width} px: the links fit, or fold into a Menu button that opens them`, async ({ page }) => {
			await page.setViewportSize({ width, height: 800 });
			await page.goto('/');
			await page.screenshot({ path: `docs/screenshots/experience-home-${width}.png` });
			const header = page.locator('header.site-header');
			const nav = page.getByRole('navigation', { name: 'Navigation principale' });
			const menu = nav.locator('summary', { hasText: 'Menu' });
			if (width < 832) {
				expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64);
				await expect(menu).toBeVisible();
				await expect(nav.getByRole('link', { name: 'Démo maçon' })).toBeHidden();
				// The keyboard opens it, as a disclosure.
				await menu.focus();
				await page.keyboard.press('Enter');
				await expect(nav.getByRole('link', { name: 'Démo maçon' })).toBeVisible();
				await nav.getByRole('link', { name: 'Démo maçon' }).click();
				await expect(page).toHaveURL(/\/macon$/);
			} else {
				await expect(menu).toBeHidden();
				for (const name of ['Accueil', 'Démo maçon', 'Démo paysagiste', 'Formation', 'Contact'])
					await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
			}
			// The agency's menu does not offer the maçon demo's quote form as its own.
			await expect(nav.locator('a[href="/devis"]')).toHaveCount(0);
			await expectNoHorizontalScroll(page);
		});
	}

	test('without JavaScript the menu still opens (a <details>)', async ({ browser }) => {
		const context = await browser.newContext({
			javaScriptEnabled: false,
			viewport: { width: 360, height: 740 }
		});
		const page = await context.newPage();
		await page.goto(`${process.env.E2E_BASE_URL}/contact`);
		const nav = page.getByRole('navigation', { name: 'Navigation principale' });
		await nav.locator('summary').click();
		await expect(nav.getByRole('link', { name: 'Démo paysagiste' })).toBeVisible();
		await context.close();
	});
});

test.describe('the demos say they are demos and stay within themselves', () => {
	for (const width of WIDTHS) {
		test(`at ${width} px: a ribbon on every demo page, a call bar on phones only`, async ({ page }) => {
			await page.setViewportSize({ width, height: 800 });
			for (const [path, phone] of [
				['/macon', '+33474001234'],
				['/paysagiste', '+33450005678'],
				['/devis', '+33474001234']
			] as const) {
				await page.goto(path);
				if (path === '/macon')
					await page.screenshot({ path: `docs/screenshots/experience-demo-${width}.png` });
				const ribbon = page.getByRole('note', { name: 'Site de démonstration' });
				await expect(ribbon).toBeVisible();
				await expect(ribbon).toContainText('entreprise fictive');
				const callBar = page.locator(`a.call-bar[href="tel:${phone}"]`);
				if (width <= 640) {
					await expect(callBar).toBeVisible();
					await expect(callBar).toContainText('Appeler');
				} else await expect(callBar).toBeHidden();
				await expectNoHorizontalScroll(page);
			}
			await page.goto('/');
			await expect(page.getByRole('note', { name: 'Site de démonstration' })).toHaveCount(0);
		});
	}

	test('the demos’ buttons lead to their own quote form or contact details, never to the agency’s audit form', async ({
		page
	}) => {
		for (const path of ['/macon', '/paysagiste']) {
			await page.goto(path);
			const main = page.getByRole('main');
			const hrefs = await main.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
			expect(hrefs).not.toContain('/contact');
			expect(hrefs).not.toContain('/candidature');
		}
		await page.goto('/paysagiste');
		await page.getByRole('main').getByRole('link', { name: 'Prendre contact' }).first().click();
		await expect(page).toHaveURL(/\/paysagiste#contact$/);
		await expect(page.locator('#contact address')).toContainText('Les Jardins de Margaux');
	});
});

test.describe('forms', () => {
	let server: RunningServer;
	let smtp: RunningSmtp;
	test.beforeAll(async () => {
		smtp = await startSmtp();
		server = await startIsolatedServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'patron@atelier.test' });
	});
	test.afterAll(async () => {
		expect(await server.stop()).toBe(0);
		await smtp.close();
	});

	for (const width of WIDTHS) {
		test(`at ${width} px: a sent quote is replaced by its confirmation, in view and focused, with the demo's number`, async ({
			page
		}) => {
			await page.setViewportSize({ width, height: 740 });
			await page.goto(`${server.url}/devis`);
			await page.locator('html[data-hydrated]').waitFor();
			// A required field left empty says what it wants, beside the field and beside the button.
			await page.getByRole('button', { name: 'Envoyer ma demande de devis' }).click();
			await expect(page.locator('#field-email-error')).toHaveText('Indiquez votre adresse e-mail.');
			await expect(page.locator('[data-submit-problem]')).toHaveText('Corrigez les champs signalés.');

			await page.getByLabel('Nom').fill(`Visiteur ${width}`);
			await page.getByLabel('Adresse e-mail').fill(`visiteur-${width}@exemple.fr`);
			await page.getByLabel('Téléphone').fill('06 12 34 56 78');
			await page.getByLabel('Commune du chantier').fill('Anse');
			await page.getByLabel('Type de projet').selectOption('mur');
			await page.getByLabel('Décrivez vos travaux').fill('Un muret de 12 mètres en pierre dorée.');
			await page.waitForTimeout(MIN_FILL_MS + 200);
			await page.getByRole('button', { name: 'Envoyer ma demande de devis' }).click();
			const confirmation = page.locator('.form-confirmation');
			await expect(confirmation).toBeVisible();
			await expect(confirmation).toContainText('Demande envoyée');
			await expect(confirmation).toBeInViewport();
			await expect(confirmation).toBeFocused();
			await expect(confirmation.locator('a[href="tel:+33474001234"]')).toBeVisible();
			await expect(page.locator('form#demande')).toHaveCount(0);
			await page.screenshot({ path: `docs/screenshots/experience-devis-confirmation-${width}.png` });
		});
	}

	test('without JavaScript too: the confirmation comes back in place of the form, at its anchor', async ({
		browser
	}) => {
		const context = await browser.newContext({
			javaScriptEnabled: false,
			viewport: { width: 360, height: 740 }
		});
		const page = await context.newPage();
		await page.goto(`${server.url}/contact`);
		await page.getByLabel('Nom', { exact: true }).fill('Sans Script');
		await page.getByLabel('Adresse e-mail').fill('sans-script@exemple.fr');
		await page.getByLabel('Votre message').fill('Bonjour, un audit pour ma menuiserie ?');
		await page.waitForTimeout(MIN_FILL_MS + 200);
		await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
		await expect(page).toHaveURL(/\/contact#demande$/);
		const confirmation = page.locator('#demande.form-confirmation');
		await expect(confirmation).toContainText('Demande envoyée');
		await expect(confirmation).toBeInViewport();
		await expect(confirmation.locator('a[href="tel:+33478000000"]')).toBeVisible();
		await context.close();
	});

	test('a member changes their e-mail address through a link sent to the new one', async ({ page }) => {
		await register(page, server.url, 'Inès Morel', 'ines@exemple.fr');
		await page.goto(`${server.url}/profil`);
		await page.locator('html[data-hydrated]').waitFor();
		await page.getByLabel('Nouvelle adresse e-mail').fill('ines@nouvelle.fr');
		await page.getByLabel('Mot de passe actuel').first().fill(PASSWORD);
		const before = smtp.received.length;
		await page.getByRole('button', { name: 'Envoyer le lien de confirmation' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'lien de confirmation' })).toBeVisible();
		await smtp.waitFor(before + 1);
		const mail = smtp.received.at(-1)!;
		expect(mail.envelopeTo).toEqual(['ines@nouvelle.fr']);
		const link = /https?:\/\/\S+\/profil\/adresse\/[\w-]{43}/.exec(mail.parsed.text ?? '')![0];
		// Still the old address until the link is followed and confirmed.
		await expect(page.getByRole('main')).toContainText('ines@exemple.fr');
		await page.goto(new URL(new URL(link).pathname, server.url).href);
		await page.getByRole('button', { name: 'Confirmer ma nouvelle adresse' }).click();
		await expect(page).toHaveURL(/\/profil\?adresse=changee$/);
		await expect(page.getByRole('main')).toContainText('ines@nouvelle.fr');
		await smtp.waitFor(before + 2);
		expect(smtp.received.at(-1)!.envelopeTo).toEqual(['ines@exemple.fr']);
	});

	test('a member without a subscription is told what to do next, from the members’ sub-menu', async ({
		page
	}) => {
		await register(page, server.url, 'Hugo Perrin', 'hugo@exemple.fr');
		await expect(page).toHaveURL(`${server.url}/dashboard`);
		const members = page.getByRole('navigation', { name: 'Espace membre' });
		await expect(members.getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute(
			'aria-current',
			'page'
		);
		for (const name of ['Cours', 'Profil']) await expect(members.getByRole('link', { name })).toBeVisible();
		const next = page.getByRole('region', { name: 'Pour accéder aux cours' });
		await expect(next.getByRole('link', { name: 'Candidater au programme' })).toHaveAttribute(
			'href',
			'/candidature'
		);
		await expectNoAxeViolation(page);
	});

	test('a signed-out visitor sent to the sign-in page is told why', async ({ browser }) => {
		const context = await browser.newContext();
		const page = await context.newPage();
		await page.goto(`${server.url}/cours`);
		await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcours$/);
		await expect(page.getByRole('status')).toContainText('Connectez-vous pour accéder à cette page');
		await context.close();
	});

	test('a 429 is said beside the submit button, where the eye is', async ({ page }) => {
		await page.goto(`${server.url}/login`);
		await page.locator('html[data-hydrated]').waitFor();
		let answer = '';
		for (let attempt = 0; attempt < 15 && !answer.includes('Trop de tentatives'); attempt++) {
			await page.getByLabel('Adresse e-mail').fill('personne@exemple.fr');
			await page.getByLabel('Mot de passe').fill(`mauvais ${attempt}`);
			await page.getByRole('button', { name: 'Se connecter' }).click();
			await page.locator('[data-submit-problem]').waitFor();
			answer = (await page.locator('[data-submit-problem]').textContent()) ?? '';
		}
		expect(answer).toContain('Trop de tentatives');
		await expect(page.getByRole('alert').first()).toContainText('Trop de tentatives');
	});
});

test.describe('the admin shell', () => {
	for (const width of WIDTHS) {
		test(`at ${width} px: its own top bar and account menu, a sidebar, no marketing header or footer`, async ({
			page
		}) => {
			await signInAsAdmin(page);
			// Something in the inbox to look at (the API's own rate limit may refuse some: that is fine here).
			if (width === 360)
				for (const [name, city] of [
					['Claire Martin', 'Anse'],
					['Luc Bernard', 'Gleizé'],
					['Nadia Roux', 'Limas']
				] as const)
					await page.request.post('/api/devis', {
						data: {
							name,
							email: `${name.split(' ')[0]!.toLowerCase()}@exemple.fr`,
							phone: '06 12 34 56 78',
							city,
							projectType: 'mur',
							message: `Un muret de pierre à reprendre à ${city}, environ 15 mètres.`
						}
					});
			await page.setViewportSize({ width, height: 800 });
			await page.goto('/admin');
			await page.screenshot({
				path: `docs/screenshots/experience-admin-dashboard-${width}.png`,
				fullPage: true
			});
			await expect(page.locator('header.site-header')).toHaveCount(0);
			await expect(page.locator('footer.site-footer')).toHaveCount(0);
			await expect(page.getByRole('link', { name: 'Voir le site' })).toBeVisible();
			// One logout, in the account menu.
			await expect(page.locator('button', { hasText: 'Se déconnecter' })).toHaveCount(1);
			await page.locator('.account summary').click();
			await expect(page.getByRole('button', { name: 'Se déconnecter' })).toBeVisible();
			const nav = page.getByRole('navigation', { name: 'Administration' });
			if (width >= 896) await expect(nav.getByRole('link', { name: 'Utilisateurs' })).toBeVisible();
			else await expect(nav).toBeHidden();
			await expect(page.getByRole('heading', { name: 'Dernières demandes' })).toBeVisible();
			await expectNoHorizontalScroll(page);
			await page.goto('/admin/demandes');
			await expect(page.getByRole('navigation', { name: 'Onglets des demandes' })).toBeVisible();
			await expectNoHorizontalScroll(page);
			await page.screenshot({ path: `docs/screenshots/experience-inbox-${width}.png`, fullPage: true });
			// A lead's own page, from its row.
			const lead = page.getByRole('table').locator('tbody th a').first();
			const name = (await lead.textContent())!.trim();
			await lead.click();
			await expect(page).toHaveURL(/\/admin\/demandes\/[0-9a-f-]{36}$/);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
			await expectNoHorizontalScroll(page);
			await expectNoAxeViolation(page);
			// The other lists share the table, and its cards on a phone.
			for (const list of ['/admin/utilisateurs', '/admin/candidatures']) {
				await page.goto(list);
				await expectNoHorizontalScroll(page);
			}
		});
	}

	test('the users list searches by name or e-mail and says when each signed in', async ({ page }) => {
		await signInAsAdmin(page);
		await page.goto('/admin/utilisateurs?q=admin-e2e');
		const row = page.getByRole('row', { name: /Admin E2E/ });
		await expect(row).toContainText('Administrateur');
		await expect(row).not.toContainText('jamais');
		await page.goto('/admin/utilisateurs?q=personne-de-tel');
		await expect(page.getByText('Aucun utilisateur ne correspond')).toBeVisible();
		await expectNoAxeViolation(page);
	});
});

test('every public page fits a 360 px screen, the privacy table included', async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 740 });
	for (const path of [
		'/',
		'/macon',
		'/paysagiste',
		'/contact',
		'/devis',
		'/candidature',
		'/mentions-legales',
		'/cgv',
		'/confidentialite',
		'/login',
		'/register'
	]) {
		await page.goto(path);
		await expectNoHorizontalScroll(page);
		const wide = await page.evaluate(() =>
			[...document.querySelectorAll('main *')]
				.filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
				.filter((el) => !el.closest('[hidden], .table-scroll, .visually-hidden, thead'))
				.map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
				.slice(0, 3)
		);
		expect(wide, path).toEqual([]);
	}
});

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
