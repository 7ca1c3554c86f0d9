/**
 * Issue "Experience": a form's journey at every width: its confirmation in view, its errors where the eye is,
 * typography kept.
 */
import { expect, test } from '../support/fixtures';
import { PASSWORD, register } from '../support/accounts';
import { expectNoAxeViolation } from '../support/a11y';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { TEST_WAITS } from '../support/waits';

const MIN_FILL_MS = TEST_WAITS.formMinFillMs;
import { sendDevisAsAPerson } from '../support/devis';

const WIDTHS = [360, 768, 1280] as const;

test.describe('forms', () => {
	let server: RunningServer;
	let smtp: RunningSmtp;
	test.beforeAll(async () => {
		smtp = await startSmtp();
		server = await startIsolatedServer({ SMTP_URL: smtp.url, ADMIN_EMAIL: 'patron@atelier.test' });
	});
	test.afterAll(async () => {
		expect(await server.stop()).toBe(0);
		await smtp.close();
	});

	for (const width of WIDTHS) {
		test(`at ${width} px: a sent quote is replaced by its confirmation, in view and focused, with the demo's number`, async ({
			page
		}) => {
			await page.setViewportSize({ width, height: 740 });
			await page.goto(`${server.url}/devis`);
			await page.locator('html[data-hydrated]').waitFor();
			// A required field left empty says what it wants, beside the field and beside the button.
			await page.getByRole('button', { name: 'Envoyer ma demande de devis' }).click();
			await expect(page.locator('#field-email-error')).toHaveText('Indiquez votre adresse e-mail.');
			await expect(page.locator('[data-submit-problem]')).toHaveText('Corrigez les champs signalés.');

			await sendDevisAsAPerson(page, {
				name: `Visiteur ${width}`,
				email: `visiteur-${width}@exemple.fr`,
				phone: '06 12 34 56 78',
				city: 'Anse',
				projectType: 'mur',
				message: 'Un muret de 12 mètres en pierre dorée.'
			});
			const confirmation = page.locator('.form-confirmation');
			await expect(confirmation).toBeVisible();
			await expect(confirmation).toContainText('Demande envoyée');
			await expect(confirmation).toBeInViewport();
			await expect(confirmation).toBeFocused();
			await expect(confirmation.locator('a[href="tel:+33474001234"]')).toBeVisible();
			await expect(page.locator('form#demande')).toHaveCount(0);
			await page.screenshot({ path: `docs/screenshots/experience-devis-confirmation-${width}.png` });
		});
	}

	test('without JavaScript too: the confirmation comes back in place of the form, at its anchor', async ({
		browser
	}) => {
		const context = await browser.newContext({
			javaScriptEnabled: false,
			viewport: { width: 360, height: 740 }
		});
		const page = await context.newPage();
		await page.goto(`${server.url}/contact`);
		await page.getByLabel('Nom', { exact: true }).fill('Sans Script');
		await page.getByLabel('Adresse e-mail').fill('sans-script@exemple.fr');
		await page.getByLabel('Votre message').fill('Bonjour, un audit pour ma menuiserie ?');
		await page.waitForTimeout(MIN_FILL_MS + 200);
		await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
		await expect(page).toHaveURL(/\/contact#demande$/);
		const confirmation = page.locator('#demande.form-confirmation');
		await expect(confirmation).toContainText('Demande envoyée');
		await expect(confirmation).toBeInViewport();
		await expect(confirmation.locator('a[href="tel:+33478000000"]')).toBeVisible();
		await context.close();
	});

	test('a member changes their e-mail address through a link sent to the new one', async ({ page }) => {
		await register(page, server.url, 'Inès Morel', 'ines@exemple.fr');
		await page.goto(`${server.url}/profil`);
		await page.locator('html[data-hydrated]').waitFor();
		await page.getByLabel('Nouvelle adresse e-mail').fill('ines@nouvelle.fr');
		await page.getByLabel('Mot de passe actuel').first().fill(PASSWORD);
		const before = smtp.received.length;
		await page.getByRole('button', { name: 'Envoyer le lien de confirmation' }).click();
		await expect(page.getByRole('status').filter({ hasText: 'lien de confirmation' })).toBeVisible();
		await smtp.waitFor(before + 1);
		const mail = smtp.received.at(-1)!;
		expect(mail.envelopeTo).toEqual(['ines@nouvelle.fr']);
		const link = /https?:\/\/\S+\/profil\/adresse\/[\w-]{43}/.exec(mail.parsed.text ?? '')![0];
		// Still the old address until the link is followed and confirmed.
		await expect(page.getByRole('main')).toContainText('ines@exemple.fr');
		await page.goto(new URL(new URL(link).pathname, server.url).href);
		await page.getByRole('button', { name: 'Confirmer ma nouvelle adresse' }).click();
		await expect(page).toHaveURL(/\/profil\?adresse=changee$/);
		await expect(page.getByRole('main')).toContainText('ines@nouvelle.fr');
		await smtp.waitFor(before + 2);
		expect(smtp.received.at(-1)!.envelopeTo).toEqual(['ines@exemple.fr']);
	});

	test('a member without a subscription is told what to do next, from the members’ sub-menu', async ({
		page
	}) => {
		await register(page, server.url, 'Hugo Perrin', 'hugo@exemple.fr');
		await expect(page).toHaveURL(`${server.url}/dashboard`);
		const members = page.getByRole('navigation', { name: 'Espace membre' });
		await expect(members.getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute(
			'aria-current',
			'page'
		);
		for (const name of ['Cours', 'Profil']) await expect(members.getByRole('link', { name })).toBeVisible();
		const next = page.getByRole('region', { name: 'Pour accéder aux cours' });
		await expect(next.getByRole('link', { name: 'Candidater au programme' })).toHaveAttribute(
			'href',
			'/candidature'
		);
		await expectNoAxeViolation(page);
	});

	test('a signed-out visitor sent to the sign-in page is told why', async ({ browser }) => {
		const context = await browser.newContext();
		const page = await context.newPage();
		await page.goto(`${server.url}/cours`);
		await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcours$/);
		await expect(page.getByRole('status')).toContainText('Connectez-vous pour accéder à cette page');
		await context.close();
	});

	test('a 429 is said beside the submit button, where the eye is', async ({ page }) => {
		await page.goto(`${server.url}/login`);
		await page.locator('html[data-hydrated]').waitFor();
		let answer = '';
		for (let attempt = 0; attempt < 15 && !answer.includes('Trop de tentatives'); attempt++) {
			await page.getByLabel('Adresse e-mail').fill('personne@exemple.fr');
			await page.getByLabel('Mot de passe').fill(`mauvais ${attempt}`);
			await page.getByRole('button', { name: 'Se connecter' }).click();
			await page.locator('[data-submit-problem]').waitFor();
			answer = (await page.locator('[data-submit-problem]').textContent()) ?? '';
		}
		expect(answer).toContain('Trop de tentatives');
		await expect(page.getByRole('alert').first()).toContainText('Trop de tentatives');
	});
});
