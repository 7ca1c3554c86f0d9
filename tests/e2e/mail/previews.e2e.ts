import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

test('an admin previews every e-mail template, in the light and the dark theme, with its text version', async ({
	page
}) => {
	await signInAsAdmin(page);
	await page.goto('/admin/emails');
	// One preview per template of the catalogue: leads (4), candidatures (4), members (5: with the attestation and
	// the course reminder), the account's deletion as the business sees it (2), the security e-mails (13), the
	// failed scheduled backup (1), the training's (4: a question to the admins, its answer, the cold survey and its
	// reminder).
	const links = page.getByRole('main').locator('a[href^="/admin/emails/"]');
	await expect(links).toHaveCount(33);
	for (const name of [
		'Nouvelle demande de devis (à l’entreprise)',
		'Candidature acceptée, lien de paiement (au candidat)',
		'Bienvenue, choix du mot de passe (au nouveau membre)',
		'Attestation de fin de formation délivrée (au membre)',
		'Rappel « Reprenez là où vous en étiez » (au membre, après 7 jours sans progrès)',
		'Réponse du formateur (au membre)',
		'Questionnaire à froid (au membre, quelques semaines après la fin)'
	])
		await expect(page.getByRole('link', { name })).toBeVisible();

	await page.getByRole('link', { name: 'Nouvelle demande de devis (à l’entreprise)' }).click();
	await expect(page).toHaveURL(/\/admin\/emails\/lead-notification-devis$/);
	const frame = page.frameLocator('iframe');
	await expect(frame.getByRole('heading', { name: 'Demande de devis maçonnerie' })).toBeVisible();
	await expect(frame.getByText('Claire Dupont').first()).toBeVisible();
	await expect(page.locator('pre')).toContainText('Type de projet : ');
	const light = await frame.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);

	await page.getByRole('link', { name: 'Thème sombre' }).click();
	await expect(page).toHaveURL(/theme=dark/);
	await expect(frame.getByRole('heading', { name: 'Demande de devis maçonnerie' })).toBeVisible();
	// The frame reloads after the page's URL changed: its new body is waited for, not read once (a loaded
	// machine read the light one still).
	await expect
		.poll(() => frame.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor))
		.toBe('rgb(17, 24, 39)');
	expect(light).not.toBe('rgb(17, 24, 39)');
});

test('an unknown template is a 404, and the previews are for admins only', async ({ page, browser }) => {
	await signInAsAdmin(page);
	expect((await page.request.get('/admin/emails/nope')).status()).toBe(404);
	expect((await page.request.get('/admin/emails/nope/html')).status()).toBe(404);
	const html = await page.request.get('/admin/emails/lead-acknowledgement-contact/html?theme=dark');
	expect(html.status()).toBe(200);
	expect(html.headers()['cache-control']).toBe('private, no-store');
	expect(await html.text()).toContain('<title>Nous avons bien reçu votre demande</title>');

	const anonymous = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
	const response = await anonymous.request.get('/admin/emails/lead-acknowledgement-contact/html', {
		maxRedirects: 0
	});
	expect([303, 401]).toContain(response.status());
	await anonymous.close();
});
