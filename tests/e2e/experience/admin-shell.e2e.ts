/**
 * Issue "Experience": the admin's shell at 360, 768 and 1280 px: its own top bar and account menu, a sidebar, no
 * marketing header.
 */
import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';

const WIDTHS = [360, 768, 1280] as const;

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
