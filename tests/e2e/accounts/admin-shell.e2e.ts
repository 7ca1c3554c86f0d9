import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

test.beforeEach(async ({ page }) => {
	await signInAsAdmin(page);
});

test('the admin sidebar collapses on a phone, opens on demand, and folds away after navigating', async ({
	page
}) => {
	await page.setViewportSize({ width: 360, height: 740 });
	await page.goto('/admin');
	const nav = page.getByRole('navigation', { name: 'Administration' });
	await expect(nav).toBeHidden();
	await page.getByText('Menu d’administration').click();
	await nav.getByRole('link', { name: 'Images' }).click();
	await expect(page).toHaveURL(/\/admin\/images$/);
	await expect(nav).toBeHidden();
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
});

test('the admin sidebar stays open on a desktop screen', async ({ page }) => {
	await page.setViewportSize({ width: 1280, height: 800 });
	await page.goto('/admin');
	const nav = page.getByRole('navigation', { name: 'Administration' });
	for (const name of ['Tableau de bord', 'Candidatures', 'Cours', 'Images', 'Demandes']) {
		await expect(nav.getByRole('link', { name })).toBeVisible();
	}
	await expect(page.getByRole('heading', { name: 'À faire' })).toBeVisible();
});
