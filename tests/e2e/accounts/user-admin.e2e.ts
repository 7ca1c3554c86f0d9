/**
 * The users list's sensitive actions (issue "Trust", point 2): granting admin and deleting an account ask the admin
 * to confirm with their password first (ten minutes); the action is then carried out and the list says so (issue
 * "Trust, part 2", point 7); each lands in « Activité ». With and without JavaScript.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, PASSWORD, register, signInAsAdmin, untilHydrated } from '../support/accounts';
import { expectNoAxeViolation } from '../support/a11y';

test.describe.configure({ mode: 'serial' });

async function memberRow(page: Page, name: string, javaScript = true) {
	await page.goto(`/admin/utilisateurs?q=${encodeURIComponent(name)}`);
	// With JavaScript, the actions are enhanced once the page is hydrated; without it, the mark never comes.
	if (javaScript) await untilHydrated(page);
	return page.getByRole('row', { name: new RegExp(name) });
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
		test.use({ javaScriptEnabled });

		test(
			'granting admin asks for the password, then works; deleting an account too',
			{ tag: '@drivers' },
			async ({ browser, page, baseURL }) => {
				const name = `Membre ${javaScriptEnabled ? 'JS' : 'HTML'} ${Date.now()}`;
				const visitor = await browser.newPage({ baseURL });
				await register(visitor, baseURL!, name, `membre-${Date.now()}-${javaScriptEnabled}@exemple.fr`);
				await visitor.close();

				// A fresh browser context: this session has not confirmed anything yet.
				await signInAsAdmin(page);
				let row = await memberRow(page, name, javaScriptEnabled);
				await row.getByRole('button', { name: /Rendre administrateur/ }).click();
				await expect(page).toHaveURL(/\/admin\/confirmer\?redirectTo=/);
				if (javaScriptEnabled) await untilHydrated(page);
				if (javaScriptEnabled) await expectNoAxeViolation(page);
				await page.getByLabel('Mot de passe').fill('pas le bon mot de passe');
				await page.getByRole('button', { name: 'Confirmer' }).click();
				await expect(page.getByText('Mot de passe incorrect.')).toBeVisible();
				await page.getByLabel('Mot de passe').fill(PASSWORD);
				await page.getByRole('button', { name: 'Confirmer' }).click();
				// Back on the list, the action that asked for the confirmation is done, and said so.
				await expect(page).toHaveURL(/\/admin\/utilisateurs\?q=/);
				await expect(
					page.getByText('Identité confirmée : ce compte est maintenant administrateur.')
				).toBeVisible();
				row = await memberRow(page, name, javaScriptEnabled);
				await expect(row).toContainText('Administrateur');

				// Within the ten minutes, no second confirmation.
				// Asked in the page, not by the browser: the question names the account.
				await row.locator('summary', { hasText: 'Supprimer' }).click();
				await expect(row.getByText(`Supprimer le compte de ${name} ? C’est définitif.`)).toBeVisible();
				await row.getByRole('button', { name: 'Oui, supprimer ce compte' }).click();
				await expect(page.getByText('Compte supprimé')).toBeVisible();
				await page.goto(`/admin/utilisateurs?q=${encodeURIComponent(name)}`);
				await expect(page.getByText('Aucun utilisateur ne correspond')).toBeVisible();

				await page.goto('/admin/activite');
				const trail = page.locator('tbody');
				await expect(trail.getByRole('row').first()).toContainText('Compte supprimé');
				await expect(trail.getByRole('row').nth(1)).toContainText('Droits d’administrateur donnés');
				await expect(trail.getByRole('row').first()).toContainText(E2E_ADMIN.email);
			}
		);
	});
}

test('an admin cannot remove their own rights or account from the list', async ({ page }) => {
	await signInAsAdmin(page);
	const row = await memberRow(page, E2E_ADMIN.name);
	await expect(row).toContainText('Vous (voir votre profil)');
	await expect(row.getByRole('button')).toHaveCount(0);
});
