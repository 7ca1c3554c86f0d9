/**
 * Approval with SMTP down (issue "Training programme, part 1", point 5): the Checkout Session is still made,
 * the admin reads in words that the e-mail did not go, and gets the payment link with a copy button.
 */
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, signIn } from '../support/accounts';
import { startIsolatedServer } from '../support/server';
import { startFakeStripe } from '../../helpers/fake-stripe';

test('an approval with SMTP down shows both outcomes and the payment link to copy', async ({ browser }) => {
	const stripe = await startFakeStripe();
	// Nothing listens on port 1: every e-mail fails.
	const server = await startIsolatedServer({ SMTP_URL: 'smtp://127.0.0.1:1', ...stripe.env });
	const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
	try {
		const api = await context.request.post(`${server.url}/api/admin/setup`, { data: E2E_ADMIN });
		expect(api.status()).toBe(201);
		const created = await context.request.post(`${server.url}/api/candidature`, {
			data: {
				firstName: 'Sophie',
				lastName: 'Garnier',
				email: 'sophie.garnier@exemple.fr',
				phone: '07 98 76 54 32',
				postalCode: '38000',
				city: 'Grenoble',
				trade: 'paysagiste',
				company: 'Garnier Jardins',
				siret: '73282932000074',
				yearsExperience: 8,
				teamSize: 2,
				goals: ['demandes'],
				presence: ['reseaux'],
				hoursPerWeek: 3,
				motivation: 'Je veux être trouvée par les particuliers de l’agglomération sans plateforme payante.',
				consent: true
			}
		});
		expect(created.status()).toBe(201);
		const page = await context.newPage();
		await signIn(page, server.url, E2E_ADMIN.email, E2E_ADMIN.password);
		await page.goto(`${server.url}/admin/candidatures`);
		await page.locator('html[data-hydrated]').waitFor();
		// The business's own notification failed too: the list says so.
		await expect(page.getByText('Notification échouée')).toBeVisible();
		await page.getByText('Sophie Garnier').click();
		await page.getByText('Approuver…').click();
		await page.getByRole('button', { name: 'Confirmer l’approbation' }).click();
		await expect(page.getByText('L’e-mail d’approbation n’est pas parti')).toBeVisible();
		await expect(page.getByText('Session de paiement Stripe créée.')).toBeVisible();
		const link = page.getByLabel('Lien de paiement');
		await expect(link).toHaveValue(/\/paiement\/[\w-]+\.[\w-]{43}$/);
		await expect(page.getByRole('button', { name: 'Copier' })).toBeVisible();
		if (process.env.SCREENSHOTS_DIR)
			await page.screenshot({
				path: `${process.env.SCREENSHOTS_DIR}/admin-approval-smtp-down.png`,
				fullPage: true
			});
		expect(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(1);
	} finally {
		await context.close();
		await server.stop();
		await stripe.close();
	}
});
