/**
 * Issue "Experience": the public pages at a phone's (360), a tablet's (768) and a desktop's (1280) width: the
 * header's menu, the demos' ribbon and call bar, and every public page within a 360 px screen.
 */
import { expect, test } from '../support/fixtures';
import { expectNoHorizontalScroll } from '../support/a11y';

const WIDTHS = [360, 768, 1280] as const;

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
