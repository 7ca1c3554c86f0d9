/**
 * The admin's lists fit a 1280 px screen (issue « Experience, part 2 », point 4): with long names and e-mails in them,
 * no table is wider than its column, no cell's content spills out of it, no button is cut. E-mails are shortened by
 * an ellipsis, whole on hover (`title`).
 */
import { expect, test } from '../support/fixtures';
import { register, signInAsAdmin } from '../support/accounts';
import { expectNoHorizontalScroll } from '../support/a11y';

const LONG_EMAIL = 'marie-christine.delaroche-vandermeersch.entreprise@maconnerie-generale-du-beaujolais.fr';

test.beforeAll(async ({ browser }) => {
	const base = process.env.E2E_BASE_URL!;
	const context = await browser.newContext();
	const page = await context.newPage();
	await register(page, base, 'Marie-Christine Delaroche-Vandermeersch', LONG_EMAIL);
	await page.request.post(`${base}/api/contact`, {
		data: {
			name: 'Jean-Baptiste Delaroche-Vandermeersch',
			email: LONG_EMAIL,
			message: 'Un message assez long pour passer.'
		}
	});
	await context.close();
});

test('at 1280 px no admin list overflows, and long e-mails are shortened, whole on hover', async ({
	page
}) => {
	await signInAsAdmin(page);
	await page.setViewportSize({ width: 1280, height: 900 });
	for (const path of [
		'/admin/utilisateurs',
		'/admin/demandes?onglet=toutes',
		'/admin/candidatures',
		'/admin/activite',
		'/admin/cours'
	]) {
		await page.goto(path);
		await expectNoHorizontalScroll(page);
		const overflows = await page.evaluate(() => {
			const found: string[] = [];
			for (const table of document.querySelectorAll('main table')) {
				const column = (table.parentElement as HTMLElement).getBoundingClientRect();
				if (table.getBoundingClientRect().right > column.right + 1) found.push(`table wider than its column`);
				for (const cell of table.querySelectorAll('th, td')) {
					const box = cell.getBoundingClientRect();
					if (cell.scrollWidth > cell.clientWidth + 1)
						found.push(`cell overflows: ${cell.textContent?.trim().slice(0, 60)}`);
					for (const control of cell.querySelectorAll('a, button, summary'))
						if (control.getBoundingClientRect().right > box.right + 1)
							found.push(`cut: ${control.textContent?.trim().slice(0, 60)}`);
				}
			}
			return found;
		});
		expect(overflows, path).toEqual([]);
	}
	await page.goto('/admin/utilisateurs');
	const email = page.getByRole('link', { name: LONG_EMAIL });
	await expect(email).toHaveAttribute('title', LONG_EMAIL);
	expect(await email.evaluate((a) => a.scrollWidth > a.clientWidth)).toBe(true);
	await page.screenshot({ path: test.info().outputPath('utilisateurs-1280.png') });
});
