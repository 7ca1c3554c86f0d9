/**
 * The audit trail in the admin (issue "Trust", point 3): what an admin does through the API and the forms shows on
 * « Activité » with who did it and what changed; the filters work with and without JavaScript; the page fits a
 * phone and passes axe.
 */
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, register, signInAsAdmin, untilHydrated } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';

test.describe.configure({ mode: 'serial' });

const TITLE = `Journal ${Date.now()}`;

test(
	'an admin’s actions appear on « Activité », newest first, with what changed',
	{ tag: '@drivers' },
	async ({ page }) => {
		await signInAsAdmin(page);
		const created = await page.request.post('/api/admin/modules', {
			data: { title: TITLE, summary: 'Résumé', content: 'Texte', published: false, durationMinutes: 5 }
		});
		expect(created.status()).toBe(201);
		// The same admin publishes it through the form of the modules page.
		await page.goto('/admin/cours');
		await page.getByRole('button', { name: `Publier « ${TITLE} »` }).click();
		await expect(page.getByText('Module publié.')).toBeVisible();

		await page.goto('/admin/activite');
		await expect(page.getByRole('heading', { name: 'Activité', level: 1 })).toBeVisible();
		const rows = page.getByRole('row').filter({ hasText: E2E_ADMIN.email });
		await expect(rows.first()).toContainText('Module modifié');
		await expect(rows.first()).toContainText('Publié : non → oui');
		await expect(rows.nth(1)).toContainText('Module créé');
		await expect(rows.nth(1)).toContainText(TITLE);
		await expectNoAxeViolation(page);

		await page.setViewportSize({ width: 360, height: 740 });
		await page.reload();
		await expectNoHorizontalScroll(page);
	}
);

test('the filters narrow the trail by action and by admin, and say when nothing matches', async ({
	page
}) => {
	await signInAsAdmin(page);
	await page.goto('/admin/activite');
	await untilHydrated(page);
	await page.getByRole('combobox', { name: /^Action/ }).selectOption({ label: 'Module créé' });
	await page.getByRole('button', { name: 'Filtrer' }).click();
	await expect(page).toHaveURL(/type=module\.created/);
	const body = page.locator('tbody');
	await expect(body.getByRole('row').first()).toContainText('Module créé');
	await expect(body).not.toContainText('Module modifié');

	await page.getByRole('combobox', { name: /^Administrateur/ }).selectOption({ label: E2E_ADMIN.email });
	await page.getByRole('button', { name: 'Filtrer' }).click();
	await expect(page).toHaveURL(/admin=[0-9a-f-]{36}/);
	await expect(body.getByRole('row').first()).toContainText(E2E_ADMIN.email);

	await page.goto('/admin/activite?type=module.created&du=2001-01-01&au=2001-01-02');
	await expect(page.getByText('Aucune action ne correspond à ces filtres.')).toBeVisible();
});

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false });

	test('the filter form is a plain GET form: the page answers with the filtered trail', async ({ page }) => {
		await signInAsAdmin(page);
		await page.goto('/admin/activite');
		await page.getByRole('combobox', { name: /^Action/ }).selectOption({ label: 'Module modifié' });
		await page.getByRole('button', { name: 'Filtrer' }).click();
		await expect(page).toHaveURL(/type=module\.updated/);
		await expect(page.locator('tbody').getByRole('row').first()).toContainText('Module modifié');
		await expect(page.locator('tbody')).not.toContainText('Module créé');
	});
});

test('a member opening « Activité » is sent home with a message', async ({ page, baseURL }) => {
	await register(page, baseURL!, 'Membre Curieux', `curieux-${Date.now()}@exemple.fr`);
	await page.goto('/admin/activite');
	await expect(page).toHaveURL(`${baseURL}/`);
	await expect(page.getByText('réservée aux administrateurs', { exact: false })).toBeVisible();
});
