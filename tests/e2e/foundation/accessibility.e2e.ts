import { expectNoAxeViolation } from '../support/a11y';
import { expect, test } from '../support/fixtures';
import { buttonContrasts } from '../support/contrast';
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

test('every button of every sitemap page is readable on its ground (contrast at least 4.5:1)', async ({
	page
}) => {
	const xml = await (await page.request.get('/sitemap.xml')).text();
	const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
	expect(paths.length).toBeGreaterThan(5);
	for (const path of paths) {
		await page.goto(path);
		for (const { label, ratio } of await buttonContrasts(page))
			expect(ratio, `${path}: « ${label} »`).toBeGreaterThanOrEqual(4.5);
	}
});
