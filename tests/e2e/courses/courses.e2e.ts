/**
 * Courses in Chromium (issue "Courses and the members' area", point 6): an admin writes and publishes a module in
 * the editor, a paying member completes it on a phone and sees the dashboard move; axe on the admin and member
 * pages; a signed-out visitor and a non-member are kept out.
 */
import path from 'node:path';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, PASSWORD, register, signIn } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { checkoutCompleted, signEvent } from '../../helpers/stripe-events';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let smtp: RunningSmtp;
let stripe: FakeStripe;
let base: string;
const MEMBER = 'lea.membre@exemple.fr';
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/images');
let mediaPath = '';

test.beforeAll(async ({ playwright }) => {
	smtp = await startSmtp();
	stripe = await startFakeStripe();
	server = await startIsolatedServer({
		SMTP_URL: smtp.url,
		ADMIN_EMAIL: 'patron@atelier.test',
		...stripe.env
	});
	base = server.url;
	// A paying member: candidature, approval, completed checkout, password set through the welcome link.
	const api = await playwright.request.newContext({ baseURL: base });
	expect((await api.post('/api/admin/setup', { data: E2E_ADMIN })).status()).toBe(201);
	await api.post('/login', {
		form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
		headers: { origin: base, accept: 'text/html' },
		maxRedirects: 0
	});
	const created = await api.post('/api/candidature', {
		data: {
			firstName: 'Léa',
			lastName: 'Membre',
			email: MEMBER,
			phone: '06 00 00 00 02',
			postalCode: '69002',
			city: 'Lyon',
			trade: 'peintre',
			company: 'Léa Peinture',
			siret: '73282932000074',
			yearsExperience: 4,
			teamSize: 1,
			goals: ['image'],
			presence: ['aucune'],
			hoursPerWeek: 3,
			motivation: 'Je veux apprendre à présenter mes chantiers en ligne, simplement.',
			consent: true
		}
	});
	const { id } = await created.json();
	expect((await api.post(`/api/admin/candidatures/${id}/approve`)).status()).toBe(200);
	await api.dispose();
	const signed = signEvent(
		checkoutCompleted({ candidatureId: id, email: MEMBER, subscription: 'sub_courses' }),
		stripe.env.STRIPE_WEBHOOK_SECRET!
	);
	const hook = await fetch(`${base}/api/payments/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
		body: signed.payload
	});
	expect(hook.status).toBe(200);
	await expect
		.poll(() => smtp.received.some((m) => m.parsed.subject?.includes('choisissez votre mot de passe')))
		.toBe(true);
	const welcome = smtp.received.find((m) => m.parsed.subject?.includes('choisissez votre mot de passe'))!;
	const token = /\/mot-de-passe\/([\w-]{43})/.exec(welcome.parsed.text ?? '')![1];
	const set = await fetch(`${base}/mot-de-passe/${token}`, {
		method: 'POST',
		headers: { origin: base, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ password: PASSWORD }),
		redirect: 'manual'
	});
	expect(set.status).toBe(303);
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await smtp.close();
	await stripe.close();
});

test('an admin writes a module with a live preview, the slug following the title, and publishes it', async ({
	browser
}) => {
	const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
	const page = await context.newPage();
	// The editor's effects settle: no error in the page (an endless effect is one, Svelte's update depth error).
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	// Nor a warning: superforms said « Duplicate form id's found » once the new module's page followed its creation.
	page.on('console', (message) => {
		if (message.type() === 'warning' || message.type() === 'error') pageErrors.push(message.text());
	});
	await signIn(page, base, E2E_ADMIN.email, E2E_ADMIN.password);
	await page.goto(`${base}/admin/cours`);
	await expectNoAxeViolation(page);
	await page.getByRole('link', { name: 'Nouveau module' }).click();
	await page.locator('html[data-hydrated]').waitFor();
	await page.getByLabel('Titre').fill('Votre fiche Google : l’essentiel');
	await expect(page.getByLabel('Adresse (/cours/…)')).toHaveValue('votre-fiche-google-l-essentiel');
	await page.getByLabel('Durée (minutes)').fill('15');
	await page
		.getByLabel('Contenu (Markdown)')
		.fill(
			'## Pourquoi\n\nVos clients vous **cherchent** sur Google.\n\n<script>alert(1)</script>\n\n[piège](javascript:alert(1))'
		);
	const preview = page.locator('.preview');
	await expect(preview.getByRole('heading', { name: 'Pourquoi' })).toBeVisible();
	await expect(preview.locator('strong')).toHaveText('cherchent');
	await expect(preview.locator('script')).toHaveCount(0);
	await expect(preview.locator('a[href^="javascript"]')).toHaveCount(0);
	await expectNoAxeViolation(page);
	await page.getByRole('button', { name: 'Créer le module' }).click();
	await expect(page.getByRole('heading', { name: 'Modifier le module' })).toBeVisible();

	// Unsaved changes are not lost on a stray navigation: the browser asks first.
	await page.getByLabel('Titre').fill('Votre fiche Google : l’essentiel (v2)');
	page.once('dialog', (dialog) => dialog.dismiss());
	await page.getByRole('link', { name: '← Tous les modules' }).click();
	await expect(page.getByRole('heading', { name: 'Modifier le module' })).toBeVisible();
	await page.getByLabel('Publié (visible des membres)').check();
	await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
	await expect(page.getByText('Module enregistré.')).toBeVisible();

	// An image through the upload pipeline, placed in the content with the line the page gives.
	await page.getByLabel(/Photo \(JPEG/).setInputFiles(path.join(FIXTURES, 'Landscape_1.jpg'));
	await page.getByRole('button', { name: 'Envoyer' }).click();
	const snippet = page.getByLabel('Ligne Markdown de l’image');
	await expect(snippet).toHaveValue(/^!\[Décrivez l’image\]\(\/cours\/media\/[\w-]+\.webp\)$/);
	mediaPath = /\((\/cours\/media\/[^)]+)\)/.exec(await snippet.inputValue())![1]!;
	const content = page.getByLabel('Contenu (Markdown)');
	await content.fill(`${await content.inputValue()}\n\n![Un mur de pierre](${mediaPath})`);
	await expect(page.locator('.preview img')).toHaveAttribute('src', mediaPath);
	await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
	await expect(page.getByText('Module enregistré.')).toBeVisible();

	await page.goto(`${base}/admin/cours`);
	await expect(page.getByText('Publié', { exact: true })).toBeVisible();
	expect(pageErrors).toEqual([]);
	await context.close();
});

test('a member completes the module on a phone and the dashboard moves', async ({ browser }) => {
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/dashboard`);
	await expect(page.getByText('0 % du programme')).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.getByRole('link', { name: 'Continuer' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Votre fiche Google : l’essentiel (v2)');
	// A client-side navigation: the module's HTML came with the page's data.
	await expect(page.locator('.prose strong')).toHaveText('cherchent');
	// A full load: the module's HTML is in the page once, not again in the data it hydrates from, and hydration
	// keeps what the server rendered.
	const source = await (await page.request.get(page.url())).text();
	expect(source.split('Vos clients vous').length - 1).toBe(1);
	await page.reload();
	await page.locator('html[data-hydrated]').waitFor();
	await expect(page.locator('.prose strong')).toHaveText('cherchent');
	await expect(page.locator('.prose script')).toHaveCount(0);
	// The module's image is served to the member by the route that checks access.
	const image = page.getByRole('img', { name: 'Un mur de pierre' });
	await expect(image).toHaveAttribute('src', mediaPath);
	await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.getByRole('button', { name: 'Marquer comme terminé' }).dblclick();
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).toBeVisible();
	await expect(page.getByText('100 % du programme')).toBeVisible();
	// The data asked again after the action brings the HTML: the module is still there, whole.
	await expect(page.locator('.prose strong')).toHaveText('cherchent');
	await expect(image).toBeVisible();
	// The last module done: the main action leads to the course's end; going back on it is the small one.
	const done = page.getByRole('region', { name: 'Module terminé' });
	await expect(done.getByRole('link', { name: 'Voir le bilan du programme' })).toHaveClass(
		/(?:^|\s)button(?:\s|$)/
	);
	await expect(page.getByRole('button', { name: 'Annuler : pas encore terminé' })).not.toHaveClass(
		/(?:^|\s)button(?:\s|$)/
	);
	await expect(page.getByText(/^\d+\smin\s·\sTerminé$/)).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.screenshot({ path: test.info().outputPath('module-termine-360.png'), fullPage: true });
	await done.getByRole('link', { name: 'Voir le bilan du programme' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Programme terminé : bravo !');
	await expect(
		page.getByText(/Vous avez suivi tout le .+\s:\s1\smodule, soit \d+\smin de formation\./)
	).toBeVisible();
	await expect(page.getByRole('link', { name: 'Votre fiche Google : l’essentiel (v2)' })).toBeVisible();
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await page.screenshot({ path: test.info().outputPath('bilan-360.png'), fullPage: true });
	await page.goto(`${base}/dashboard`);
	await expect(page.getByText('100 % du programme')).toBeVisible();
	await expect(page.getByText('Bravo, vous avez terminé tous les modules publiés.')).toBeVisible();
	await expect(page.getByRole('link', { name: 'Voir le bilan du programme' })).toBeVisible();
	await context.close();
});

test('without JavaScript the completion is a form action too', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false });
	const page = await context.newPage();
	await signIn(page, base, MEMBER, PASSWORD);
	await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	await page.getByRole('button', { name: 'Annuler : pas encore terminé' }).click();
	await expect(page.getByRole('button', { name: 'Marquer comme terminé' })).toBeVisible();
	await expect(page.getByText('0 % du programme')).toBeVisible();
	await context.close();
});

test('signed out → sign-in; a registered visitor without membership → how to join; unknown module → 404', async ({
	page,
	pageProblems
}) => {
	expect((await page.request.get(`${base}${mediaPath}`, { maxRedirects: 0 })).status()).toBe(303);
	const response = await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	expect(page.url()).toContain('/login?redirectTo=');
	expect(response!.status()).toBe(200);
	await register(page, base, 'Sans Abonnement', 'sans.abonnement@exemple.fr');
	await page.waitForURL(`${base}/dashboard`);
	await expect(page.getByText('Vous n’avez pas encore d’abonnement')).toBeVisible();
	await page.goto(`${base}/cours/votre-fiche-google-l-essentiel-v2`);
	await expect(page.getByRole('heading', { name: 'Cours réservés aux membres' })).toBeVisible();
	await expect(page.getByText('Vos clients vous')).toHaveCount(0);
	// Nor its images, asked for directly.
	expect((await page.request.get(`${base}${mediaPath}`)).status()).toBe(403);
	await page.context().clearCookies();
	await signIn(page, base, MEMBER, PASSWORD);
	const missing = await page.goto(`${base}/cours/nexiste-pas`);
	expect(missing!.status()).toBe(404);
	pageProblems.length = 0;
});
