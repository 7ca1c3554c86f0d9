/**
 * "Télécharger mes données" (issue "Trust", point 4): a member downloads their file from /profil, with and without
 * JavaScript; an admin downloads the same from the users list; nobody else gets it.
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { register, signInAsAdmin } from '../support/accounts';
import { expectNoAxeViolation } from '../support/a11y';

test.describe.configure({ mode: 'serial' });

const MEMBER = { name: 'Inès Garnier', email: `ines-${Date.now()}@exemple.fr` };

/** The JSON of a download, with the name the browser was told to save it under. */
async function fileOf(download: Download) {
	return {
		name: download.suggestedFilename(),
		data: JSON.parse(readFileSync((await download.path())!, 'utf8'))
	};
}

async function downloadFrom(page: Page, link: ReturnType<Page['getByRole']>) {
	const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
	return fileOf(download);
}

test(
	'a member downloads everything held about them from their profile',
	{ tag: '@drivers' },
	async ({ page, baseURL }) => {
		await register(page, baseURL!, MEMBER.name, MEMBER.email);
		await page.goto('/profil');
		const link = page.getByRole('link', { name: 'Télécharger mes données' });
		await expect(link).toBeVisible();
		await expectNoAxeViolation(page);
		const file = await downloadFrom(page, link);
		expect(file.name).toMatch(/^mes-donnees-atelier-\d{4}-\d{2}-\d{2}\.json$/);
		expect(file.data.account).toMatchObject({ email: MEMBER.email, name: MEMBER.name, role: 'member' });
		expect(file.data.sessions.length).toBeGreaterThanOrEqual(1);
		expect(JSON.stringify(file.data)).not.toMatch(/argon2|passwordHash/);

		const direct = await page.request.get('/profil/donnees');
		expect(direct.headers()['cache-control']).toContain('no-store');

		// Someone else's file is not theirs to take: the admin's route sends a member home (or, on a site with no
		// admin yet, to the first admin's set-up).
		const theirs = await page.request.get(`/admin/utilisateurs/${file.data.account.id}/donnees`, {
			maxRedirects: 0
		});
		expect(theirs.status()).toBe(303);
		expect(theirs.headers().location).toMatch(/^\/(setup-admin)?$/);
	}
);

test('without JavaScript the link downloads the same file', async ({ browser, baseURL }) => {
	const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
	const page = await context.newPage();
	await page.goto('/login');
	await page.getByLabel('Adresse e-mail', { exact: true }).fill(MEMBER.email);
	await page.getByLabel('Mot de passe', { exact: true }).fill('une phrase de passe solide');
	await page.getByRole('button', { name: 'Se connecter' }).click();
	await page.waitForURL((url) => url.pathname !== '/login');
	await page.goto('/profil');
	const file = await downloadFrom(page, page.getByRole('link', { name: 'Télécharger mes données' }));
	expect(file.data.account.email).toBe(MEMBER.email);
	await context.close();
});

test('signed out, the file is behind the sign-in page', async ({ request }) => {
	const response = await request.get('/profil/donnees', { maxRedirects: 0 });
	expect(response.status()).toBe(303);
	expect(response.headers().location).toBe('/login?redirectTo=%2Fprofil%2Fdonnees');
});

test('an admin downloads a member’s file from the users list', async ({ page }) => {
	await signInAsAdmin(page);
	await page.goto(`/admin/utilisateurs?q=${encodeURIComponent(MEMBER.email)}`);
	const row = page.getByRole('row', { name: new RegExp(MEMBER.name) });
	const file = await downloadFrom(
		page,
		row.getByRole('link', { name: `Télécharger les données de ${MEMBER.name}` })
	);
	expect(file.data.account).toMatchObject({ email: MEMBER.email, role: 'member' });
	await expectNoAxeViolation(page);
	const unknown = await page.request.get('/admin/utilisateurs/00000000-0000-4000-8000-00000000dead/donnees');
	expect(unknown.status()).toBe(404);
});
