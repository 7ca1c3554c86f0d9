import { expect, expectConsoleNotes, test } from '../support/fixtures';

const legalPages = [
	{
		path: '/mentions-legales',
		heading: 'Mentions légales',
		mustSay: ['Directrice de la publication', 'Hébergement', 'Propriété intellectuelle']
	},
	{
		path: '/cgv',
		heading: 'Conditions générales de vente',
		mustSay: ['Droit de rétractation', 'reconduction et résiliation', 'Prix et paiement', 'Droit applicable']
	},
	{
		path: '/confidentialite',
		heading: 'Politique de confidentialité',
		mustSay: ['Responsable du traitement', 'Durées de conservation', 'Cookies', 'CNIL']
	}
];

test('the home page renders in French with the site layout', async ({ page }) => {
	const response = await page.goto('/');
	expect(response?.status()).toBe(200);
	await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	await expect(page.getByRole('banner')).toBeVisible();
	await expect(page.getByRole('main')).toBeVisible();
	const footer = page.getByRole('contentinfo');
	await expect(footer).toContainText('Atelier Numérique SAS');
	for (const name of ['Mentions légales', 'Conditions générales de vente', 'Politique de confidentialité']) {
		await expect(footer.getByRole('link', { name })).toBeVisible();
	}
});

test('the skip link is the first stop of the keyboard and leads to the content', async ({ page }) => {
	await page.goto('/');
	await page.keyboard.press('Tab');
	const skip = page.getByRole('link', { name: 'Aller au contenu' });
	await expect(skip).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/#contenu$/);
});

for (const legal of legalPages) {
	test(`${legal.path} holds the complete legal text`, async ({ page }) => {
		const response = await page.goto(legal.path);
		expect(response?.status()).toBe(200);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(legal.heading);
		await expect(page).toHaveTitle(new RegExp(legal.heading));
		for (const words of legal.mustSay) await expect(page.getByRole('main')).toContainText(words);
		// Company identifiers come from the one content file.
		await expect(page.getByRole('main')).toContainText('Atelier Numérique SAS');
	});
}

test('following the footer links reaches every legal page', async ({ page }) => {
	await page.goto('/');
	for (const legal of legalPages) {
		await page.getByRole('contentinfo').getByRole('link', { name: legal.heading }).click();
		await expect(page).toHaveURL(legal.path);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(legal.heading);
	}
});

test('an unknown page answers 404 with a French error page', async ({ page, pageProblems }) => {
	const response = await page.goto('/cette-page-n-existe-pas');
	expect(response?.status()).toBe(404);
	// Chromium reports the 404 document itself as a failed resource: that one is expected.
	expectConsoleNotes(pageProblems, /status of 404/);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cette page est introuvable');
	await expect(page.getByRole('link', { name: 'Retour à l’accueil' })).toBeVisible();
});

test('there is no horizontal scroll on a small phone', async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 740 });
	for (const path of ['/', ...legalPages.map((l) => l.path)]) {
		await page.goto(path);
		const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
		expect(overflow, path).toBeLessThanOrEqual(0);
	}
});
