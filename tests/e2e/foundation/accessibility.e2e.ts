import { expectNoAxeViolation } from '../support/a11y';
import { test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

for (const path of [
	'/',
	'/macon',
	'/paysagiste',
	'/contact',
	'/devis',
	'/login',
	'/register',
	'/setup-admin',
	'/mentions-legales',
	'/cgv',
	'/confidentialite',
	'/candidature',
	'/mot-de-passe-oublie'
]) {
	test(`${path} has no WCAG 2.1 A/AA violation that axe can find`, async ({ page }) => {
		await page.goto(path);
		await expectNoAxeViolation(page);
	});
}

for (const path of [
	'/admin',
	'/admin/images',
	'/admin/demandes',
	'/admin/emails',
	'/admin/emails/lead-notification-devis',
	'/admin/utilisateurs',
	'/admin/candidatures',
	'/admin/cours',
	'/admin/demandes?onglet=toutes',
	'/admin/activite',
	'/admin/sauvegarde',
	'/profil',
	'/dashboard',
	'/cours'
]) {
	test(`${path} (signed in as admin) has no WCAG 2.1 A/AA violation that axe can find`, async ({ page }) => {
		await signInAsAdmin(page);
		await page.goto(path);
		await expectNoAxeViolation(page);
	});
}
