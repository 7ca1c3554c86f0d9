/**
 * The candidature wizard in Chromium, with and without JavaScript, on a phone and a desktop; its answers survive
 * a reload; the admin approves it and its payment link opens a Checkout Session on the fake Stripe API.
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { expect, expectConsoleNotes, test } from '../support/fixtures';
import { E2E_ADMIN, signIn } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { TEST_WAITS } from '../support/waits';

const MIN_FILL_MS = TEST_WAITS.formMinFillMs;

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let smtp: RunningSmtp;
let stripe: FakeStripe;
let base: string;
test.beforeAll(async () => {
	smtp = await startSmtp();
	stripe = await startFakeStripe();
	server = await startIsolatedServer({
		SMTP_URL: smtp.url,
		ADMIN_EMAIL: 'patron@atelier.test',
		...stripe.env
	});
	base = server.url;
	const setup = await fetch(`${base}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(E2E_ADMIN)
	});
	expect(setup.status).toBe(201);
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await smtp.close();
	await stripe.close();
});

async function stepOne(page: Page, email: string) {
	await page.getByLabel('Prénom').fill('Julien');
	await page.getByLabel('Nom', { exact: true }).fill('Morel');
	await page.getByLabel('Adresse e-mail').fill(email);
	await page.getByLabel('Téléphone').fill('06 12 34 56 78');
	await page.getByLabel('Code postal').fill('69400');
	await page.getByLabel('Ville').fill('Villefranche-sur-Saône');
}
async function stepTwo(page: Page) {
	await page.getByLabel('Votre métier').selectOption('macon');
	await page.getByLabel('Nom de l’entreprise').fill('Morel Maçonnerie');
	await page.getByLabel('Numéro SIRET').fill('732 829 320 00074');
	await page.getByLabel('Années d’expérience').fill('12');
	await page.getByLabel('Taille de l’équipe (vous compris)').fill('3');
}
async function stepThree(page: Page) {
	await page.getByLabel('Recevoir plus de demandes de clients').check();
	await page.getByLabel('Une fiche Google (établissement)').check();
	await page.getByLabel('Heures disponibles par semaine pour la formation').fill('4');
	await page
		.getByLabel('Ce qui vous motive')
		.fill(
			'Je veux que mes clients me trouvent en ligne, sans passer par des plateformes qui prennent une commission.'
		);
}
const next = (page: Page, name: string | RegExp = 'Continuer') => page.getByRole('button', { name }).click();
const onStep = (page: Page, n: number) =>
	expect(page.getByText(`Étape ${n} sur 4`, { exact: true })).toBeVisible();

test('with JavaScript on a phone: four steps checked as they are filled in, kept across a reload, then approved and paid', async ({
	browser
}) => {
	// A whole journey (four steps, a reload, approval, checkout, webhook): more than one page's worth of time on
	// a busy 2-core runner.
	test.setTimeout(90_000);
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await page.goto(`${base}/candidature`);
	await page.locator('html[data-hydrated]').waitFor();
	await onStep(page, 1);
	// Sent as the static pages are: no SvelteKit client, one small deferred script.
	expect(await page.locator('script[src*="/_app/immutable/entry/"], link[rel="modulepreload"]').count()).toBe(
		0
	);
	expect(await page.locator('script[src]').count()).toBe(1);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	// A phone's compact header: one line and the bar instead of the step list, the first field in view at once.
	await expect(page.getByRole('navigation', { name: 'Étapes de la candidature' })).toBeHidden();
	// What a phone shows (the dash sits between no-break spaces, which Playwright's text matching keeps apart).
	const heading = (await page.getByRole('heading', { name: /^Étape 1 sur 4/ }).textContent()) ?? '';
	expect(heading.replace(/\s+/g, ' ').trim()).toBe('Étape 1 sur 4 — Vous');
	await page.setViewportSize({ width: 360, height: 640 });
	await expect(page.getByLabel('Prénom')).toBeInViewport();
	await page.setViewportSize({ width: 360, height: 740 });

	// The checks come when a person starts filling the step in, and say what the step's schema says: a field left
	// wrong is named as it is left, and nothing is sent while one is.
	const posts: string[] = [];
	page.on('request', (request) => {
		if (request.method() === 'POST') posts.push(request.url());
	});
	const checks = page.waitForResponse((response) => response.url().includes('/form-checks.'));
	await page.getByLabel('Prénom').focus();
	expect((await checks).status()).toBe(200);
	await next(page);
	await expect(page.getByText('Indiquez votre prénom.')).toBeVisible();
	await expect(page.getByLabel('Prénom')).toBeFocused();
	await expect(page.getByLabel('Prénom')).toHaveAttribute('aria-invalid', 'true');
	await stepOne(page, 'julien.js@exemple.fr');
	await page.getByLabel('Code postal').fill('694');
	await page.getByLabel('Ville').focus();
	await expect(page.getByText('Le code postal a 5 chiffres.')).toBeVisible();
	await next(page);
	expect(posts).toEqual([]);
	await expect(page.getByLabel('Code postal')).toBeFocused();
	await expectNoAxeViolation(page);
	await page.getByLabel('Code postal').fill('69400');
	await page.getByLabel('Ville').focus();
	await expect(page.getByText('Le code postal a 5 chiffres.')).toHaveCount(0);
	// What the browser cannot know (a French number's shape), the server says, at the field.
	await page.getByLabel('Téléphone').fill('12 34');
	await next(page);
	await expect(page.getByText('Indiquez un numéro français')).toBeVisible();
	expect(posts).toHaveLength(1);
	await page.getByLabel('Téléphone').fill('06 12 34 56 78');

	await next(page);
	await onStep(page, 2);
	await expectNoAxeViolation(page);
	await stepTwo(page);
	// Nor a SIRET's checksum.
	await page.getByLabel('Numéro SIRET').fill('73282932000075');
	await next(page);
	await expect(page.getByText('Ce numéro SIRET n’existe pas')).toBeVisible();
	await page.getByLabel('Numéro SIRET').fill('732 829 320 00074');
	await next(page);
	await onStep(page, 3);

	// A reload mid-wizard keeps the answers; "Retour" keeps what was typed on the step it leaves.
	await page.reload();
	await onStep(page, 3);
	await page.getByLabel('Heures disponibles par semaine pour la formation').fill('4');
	await page.getByRole('button', { name: 'Retour' }).click();
	await onStep(page, 2);
	await expect(page.getByLabel('Nom de l’entreprise')).toHaveValue('Morel Maçonnerie');
	await next(page);
	await onStep(page, 3);
	await expect(page.getByLabel('Heures disponibles par semaine pour la formation')).toHaveValue('4');
	await expectNoAxeViolation(page);
	await stepThree(page);
	await next(page, 'Voir le récapitulatif');
	await onStep(page, 4);
	await expectNoAxeViolation(page);
	await expectNoHorizontalScroll(page);
	await expect(page.getByText('Morel Maçonnerie')).toBeVisible();
	await expect(page.getByText('06 12 34 56 78')).toBeVisible();

	// "Modifier" goes back to a step with its answers.
	await page.getByRole('link', { name: 'Modifier : Vous' }).click();
	await onStep(page, 1);
	await expect(page.getByLabel('Ville')).toHaveValue('Villefranche-sur-Saône');
	await page.getByLabel('Ville').fill('Villefranche');
	await next(page);
	await next(page);
	await next(page, 'Voir le récapitulatif');
	await onStep(page, 4);
	await expect(page.getByText('69400 Villefranche', { exact: true })).toBeVisible();

	await page.getByRole('button', { name: 'Envoyer ma candidature' }).click();
	await expect(page.getByText('Acceptez les CGV')).toBeVisible();
	await page.getByLabel('J’accepte les conditions générales de vente').check();
	// A person takes more than the time trap's 3 seconds over four steps.
	await page.waitForTimeout(MIN_FILL_MS);
	const mailsBefore = smtp.received.length;
	await page.getByRole('button', { name: 'Envoyer ma candidature' }).click();
	await expect(page.getByRole('heading', { name: 'Merci, votre candidature est bien reçue' })).toBeVisible();
	await expectNoAxeViolation(page);
	const mails = await smtp.waitFor(mailsBefore + 2);
	const notification = mails.find((m) => m.parsed.subject?.startsWith('Nouvelle candidature'))!;
	expect(notification.parsed.text).toContain('Villefranche');
	const adminLink = /http:\/\/[^\s]+\/admin\/candidatures\/[\w-]{36}/.exec(
		notification.parsed.text ?? ''
	)![0];

	// The admin opens the link of the notification, approves, and the payment link opens a session on the fake.
	const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const admin = await adminContext.newPage();
	await signIn(admin, base, E2E_ADMIN.email, E2E_ADMIN.password);
	await admin.goto(adminLink);
	await admin.locator('html[data-hydrated]').waitFor();
	await expect(admin.getByText('julien.js@exemple.fr')).toBeVisible();
	await expectNoAxeViolation(admin);
	await admin.getByText('Approuver…').click();
	await admin.getByRole('button', { name: 'Confirmer l’approbation' }).click();
	await expect(admin.getByText('E-mail d’approbation envoyé au candidat.')).toBeVisible();
	await expect(admin.getByText('Session de paiement Stripe créée.')).toBeVisible();
	const paymentLink = await admin.getByLabel('Lien de paiement').inputValue();
	expect(paymentLink).toMatch(/\/paiement\/[\w-]+\.[\w-]{43}$/);
	const approval = (await smtp.waitFor(mailsBefore + 3)).at(-1)!;
	expect(approval.parsed.html).toContain(paymentLink);

	// The list, on a phone: the approved candidature is a card that leads back to its page.
	await admin.setViewportSize({ width: 360, height: 740 });
	await admin.goto(`${base}/admin/candidatures?statut=approved`);
	const row = admin.getByRole('row', { name: /Julien Morel/ });
	await expect(row).toContainText('Approuvée');
	await expect(row).toContainText('Morel Maçonnerie');
	await expectNoHorizontalScroll(admin);
	await expectNoAxeViolation(admin);
	if (process.env.SCREENSHOTS_DIR)
		await admin.screenshot({
			path: `${process.env.SCREENSHOTS_DIR}/admin-candidatures-360.png`,
			fullPage: true
		});
	await row.getByRole('link', { name: 'Julien Morel' }).click();
	await expect(admin).toHaveURL(adminLink);
	await expectNoHorizontalScroll(admin);
	if (process.env.SCREENSHOTS_DIR)
		await admin.screenshot({
			path: `${process.env.SCREENSHOTS_DIR}/admin-candidature-360.png`,
			fullPage: true
		});

	await page.goto(paymentLink);
	await expect(page).toHaveTitle('Fake Checkout');
	const created = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
	expect(created.at(-1)!.params).toMatchObject({
		mode: 'subscription',
		customer_email: 'julien.js@exemple.fr'
	});
	await adminContext.close();
	await context.close();
});

test('a field put right before its checks arrive: the press on « Continuer » still sends the step', async ({
	browser
}) => {
	// The page the server answers with an error loads the checks anew when a person starts typing. Put right
	// before they arrive, the field still shows the server's message; the checks must not take it away as the
	// field is left — at the press on the button, which would move from under the pointer and lose the click.
	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await page.goto(`${base}/candidature`);
	await page.locator('html[data-hydrated]').waitFor();
	await stepOne(page, 'lea.retard@exemple.fr');
	await page.getByLabel('Téléphone').fill('12 34');
	await next(page);
	await expect(page.getByText('Indiquez un numéro français')).toBeVisible();

	let release = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/form-checks.*', async (route) => {
		await held;
		await route.continue();
	});
	await page.getByLabel('Téléphone').fill('06 12 34 56 78');
	release();
	await page.evaluate(async () => {
		await import(String(document.querySelector<HTMLFormElement>('form[data-checks]')?.dataset.checks));
	});
	await expect(page.getByText('Indiquez un numéro français')).toBeVisible();
	await next(page);
	await onStep(page, 2);
	await context.close();
});

test('without JavaScript on a desktop: each step is a form action, errors come from the server', async ({
	browser,
	pageProblems
}) => {
	const context = await browser.newContext({
		javaScriptEnabled: false,
		viewport: { width: 1280, height: 900 }
	});
	const page = await context.newPage();
	await page.goto(`${base}/candidature`);
	await next(page);
	await expect(page.getByText('Indiquez votre prénom.')).toBeVisible();
	await stepOne(page, 'julien.nojs@exemple.fr');
	await next(page);
	await onStep(page, 2);
	await stepTwo(page);
	await next(page);
	await onStep(page, 3);
	await stepThree(page);
	await next(page, 'Voir le récapitulatif');
	await onStep(page, 4);
	await expectNoHorizontalScroll(page);
	await page.getByLabel('J’accepte les conditions générales de vente').check();
	await page.waitForTimeout(MIN_FILL_MS);
	await page.getByRole('button', { name: 'Envoyer ma candidature' }).click();
	await expect(page.getByRole('heading', { name: 'Merci, votre candidature est bien reçue' })).toBeVisible();

	// The same e-mail again: 409, said in French on the recap.
	await page.goto(`${base}/candidature`);
	await stepOne(page, 'julien.nojs@exemple.fr');
	await next(page);
	await stepTwo(page);
	await next(page);
	await stepThree(page);
	await next(page, 'Voir le récapitulatif');
	await page.getByLabel('J’accepte les conditions générales de vente').check();
	await page.waitForTimeout(MIN_FILL_MS);
	await page.getByRole('button', { name: 'Envoyer ma candidature' }).click();
	await expect(page.getByText('Une candidature est déjà en cours pour cette adresse e-mail')).toBeVisible();
	expectConsoleNotes(pageProblems, /status of (400|409)/);
	await context.close();
});

test('the API: 201, 400 naming fields, 409; admin routes guarded; a tampered or unknown payment link is a 404', async ({
	request
}) => {
	const body = {
		firstName: 'Api',
		lastName: 'Client',
		email: 'api.client@exemple.fr',
		phone: '+33 6 11 22 33 44',
		postalCode: '01000',
		city: 'Bourg-en-Bresse',
		trade: 'autre',
		tradeOther: 'Tailleur de pierre',
		company: 'Pierre & Co',
		siret: '73282932000074',
		yearsExperience: 5,
		teamSize: 1,
		goals: ['image'],
		presence: ['aucune'],
		hoursPerWeek: 2,
		motivation: 'Une motivation assez longue pour passer la barre des cinquante caractères.',
		consent: true
	};
	const created = await request.post(`${base}/api/candidature`, { data: body });
	expect(created.status()).toBe(201);
	const { id, status } = await created.json();
	expect(status).toBe('pending');
	expect((await request.post(`${base}/api/candidature`, { data: body })).status()).toBe(409);

	const invalid = await request.post(`${base}/api/candidature`, {
		data: { ...body, email: 'x', siret: '12345678901234', consent: false, tradeOther: '' }
	});
	expect(invalid.status()).toBe(400);
	expect(Object.keys((await invalid.json()).errors).sort()).toEqual([
		'consent',
		'email',
		'siret',
		'tradeOther'
	]);

	expect((await request.post(`${base}/api/admin/candidatures/${id}/approve`)).status()).toBe(401);
	expect((await request.post(`${base}/api/admin/candidatures/not-a-uuid/approve`)).status()).toBe(404);
	expect((await request.get(`${base}/paiement/${id}.${'A'.repeat(43)}`)).status()).toBe(404);
	expect((await request.get(`${base}/paiement/nimporte-quoi`)).status()).toBe(404);
});

test('the admin API: approve answers CONTRACT §3 and a second decision is a 409', async ({ playwright }) => {
	const admin = await playwright.request.newContext({ baseURL: base });
	const login = await admin.post('/login', {
		form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
		headers: { origin: base, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(login.status()).toBe(303);
	const list = await admin.get('/admin/candidatures?statut=pending');
	expect(list.status()).toBe(200);
	const id = /href="\/admin\/candidatures\/([\w-]{36})"/.exec(await list.text())?.[1];
	expect(id).toBeTruthy();
	// Its page; the `?id=` links of notifications sent before there were pages lead to it.
	expect((await admin.get(`/admin/candidatures/${id}`)).status()).toBe(200);
	const old = await admin.get(`/admin/candidatures?id=${id}`, { maxRedirects: 0 });
	expect(old.status()).toBe(308);
	expect(old.headers().location).toBe(`/admin/candidatures/${id}`);
	expect((await admin.get('/admin/candidatures/00000000-0000-4000-8000-000000000000')).status()).toBe(404);
	const approved = await admin.post(`/api/admin/candidatures/${id}/approve`);
	expect(approved.status()).toBe(200);
	const body = await approved.json();
	expect(Object.keys(body).sort()).toEqual(
		['checkoutUrl', 'emailError', 'emailSent', 'paymentError', 'paymentLink', 'status'].sort()
	);
	expect(body).toMatchObject({ status: 'approved', emailSent: true, emailError: null, paymentError: null });
	const again = await admin.post(`/api/admin/candidatures/${id}/approve`);
	expect(again.status()).toBe(409);
	expect(again.headers()['content-type']).toContain('application/problem+json');
	expect((await admin.post(`/api/admin/candidatures/${id}/reject`, { data: {} })).status()).toBe(409);
	const unknown = await admin.post('/api/admin/candidatures/00000000-0000-4000-8000-000000000000/reject');
	expect(unknown.status()).toBe(404);
	await admin.dispose();
});

for (const width of [360, 1280])
	for (const javaScriptEnabled of [true, false])
		test(`the first step at ${width} px, JavaScript ${javaScriptEnabled ? 'on' : 'off'}: ${javaScriptEnabled ? 'no axe violation, ' : ''}no horizontal scroll`, async ({
			browser
		}) => {
			const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
			const page = await context.newPage();
			await page.goto(`${base}/candidature`);
			await onStep(page, 1);
			// axe runs as a script in the page: without JavaScript, the same markup was checked with it on.
			if (javaScriptEnabled) await expectNoAxeViolation(page);
			await expectNoHorizontalScroll(page);
			await context.close();
		});
