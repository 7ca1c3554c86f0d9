import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function violations(page: import('@playwright/test').Page) {
	const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
	return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

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
	'/confidentialite'
]) {
	test(`${path} has no WCAG 2.1 A/AA violation that axe can find`, async ({ page }) => {
		await page.goto(path);
		expect(await violations(page)).toEqual([]);
	});
}

for (const path of [
	'/admin',
	'/admin/images',
	'/admin/demandes',
	'/admin/emails',
	'/admin/emails/lead-notification-devis',
	'/profil'
]) {
	test(`${path} (signed in as admin) has no WCAG 2.1 A/AA violation that axe can find`, async ({ page }) => {
		await signInAsAdmin(page);
		await page.goto(path);
		expect(await violations(page)).toEqual([]);
	});
}
