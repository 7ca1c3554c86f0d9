/**
 * The whole path in Chromium (issue "Training programme, part 2", point 8): candidature → approval → payment
 * link → (a signed completion event posted to the webhook) → welcome e-mail → set password → /dashboard; then
 * the reset flow, the gate when the membership ends, and account deletion.
 */
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, PASSWORD, signIn } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe';
import { startSmtp, type RunningSmtp } from '../../helpers/smtp';
import { checkoutCompleted, signEvent, subscriptionEvent } from '../../helpers/stripe-events';

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
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await smtp.close();
	await stripe.close();
});

const EMAIL = 'camille.membre@exemple.fr';
/** The first e-mail (after `from`) that `match` accepts, waiting for it to arrive. */
async function mailWhere(match: (m: RunningSmtp['received'][number]) => boolean, from = 0) {
	await expect.poll(() => smtp.received.slice(from).some(match), { timeout: 10_000 }).toBe(true);
	return smtp.received.slice(from).find(match)!;
}
const linkIn = (text: string | undefined) => /http:\/\/[^\s]+\/mot-de-passe\/[\w-]{43}/.exec(text ?? '')![0];
async function postEvent(event: Record<string, unknown>) {
	const signed = signEvent(event, stripe.env.STRIPE_WEBHOOK_SECRET!);
	const response = await fetch(`${base}/api/payments/webhook`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
		body: signed.payload
	});
	expect(response.status).toBe(200);
	expect(await response.json()).toEqual({ received: true });
}

let candidatureId = '';
const subscriptionId = 'sub_e2e_member';

test('a paid candidature becomes a member who sets a password and lands on the dashboard', async ({
	browser,
	playwright
}) => {
	const admin = await playwright.request.newContext({ baseURL: base });
	expect((await admin.post('/api/admin/setup', { data: E2E_ADMIN })).status()).toBe(201);
	const login = await admin.post('/login', {
		form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
		headers: { origin: base, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(login.status()).toBe(303);
	const created = await admin.post('/api/candidature', {
		data: {
			firstName: 'Camille',
			lastName: 'Membre',
			email: EMAIL,
			phone: '06 00 00 00 01',
			postalCode: '69001',
			city: 'Lyon',
			trade: 'menuisier',
			company: 'Camille Bois',
			siret: '73282932000074',
			yearsExperience: 6,
			teamSize: 1,
			goals: ['autonomie'],
			presence: ['site'],
			hoursPerWeek: 5,
			motivation: 'Apprendre à tenir mon site et ma fiche Google moi-même, sans agence.',
			consent: true
		}
	});
	expect(created.status()).toBe(201);
	candidatureId = (await created.json()).id;
	const approval = await (await admin.post(`/api/admin/candidatures/${candidatureId}/approve`)).json();
	await admin.dispose();

	const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await page.goto(approval.paymentLink);
	await expect(page).toHaveTitle('Fake Checkout');
	const sessionId = (await page.locator('#session').textContent())!;
	expect(stripe.sessions.get(sessionId)!.client_reference_id).toBe(candidatureId);

	// Stripe tells the webhook that the checkout completed.
	const before = smtp.received.length;
	await postEvent(
		checkoutCompleted({ candidatureId, email: EMAIL, subscription: subscriptionId, customer: 'cus_e2e' })
	);
	const welcome = await mailWhere(
		(m) => m.envelopeTo.includes(EMAIL) && !!m.parsed.subject?.includes('choisissez votre mot de passe'),
		before
	);

	await page.goto(linkIn(welcome.parsed.text));
	await page.getByLabel('Nouveau mot de passe').fill(PASSWORD);
	await page.getByRole('button', { name: 'Enregistrer et me connecter' }).click();
	await expect(page).toHaveURL(`${base}/dashboard`);
	await expect(page.getByText('Abonnement :')).toContainText('actif');

	// The link served once.
	await page.goto(linkIn(welcome.parsed.text));
	await expect(page.getByRole('heading', { name: 'Ce lien a déjà servi' })).toBeVisible();
	await context.close();
});

test('a forgotten password: the same answer for anyone, a link that signs in', async ({ page }) => {
	await page.goto(`${base}/mot-de-passe-oublie`);
	await page.getByLabel('Adresse e-mail').fill('personne@exemple.fr');
	await page.getByRole('button', { name: 'Recevoir le lien' }).click();
	const answer = page.getByText('Si un compte existe avec cette adresse');
	await expect(answer).toBeVisible();

	const before = smtp.received.length;
	await page.goto(`${base}/mot-de-passe-oublie`);
	await page.getByLabel('Adresse e-mail').fill(EMAIL);
	await page.getByRole('button', { name: 'Recevoir le lien' }).click();
	await expect(page.getByText('Si un compte existe avec cette adresse')).toBeVisible();
	const reset = await mailWhere((m) => m.parsed.subject === 'Réinitialiser votre mot de passe', before);
	expect(reset.envelopeTo).toEqual([EMAIL]);
	await page.goto(linkIn(reset.parsed.text));
	await page.getByLabel('Nouveau mot de passe').fill('une toute nouvelle phrase');
	await page.getByRole('button', { name: 'Enregistrer et me connecter' }).click();
	await expect(page).toHaveURL(`${base}/dashboard`);
});

test('a membership that ended closes the courses and says how to rejoin', async ({ page }) => {
	const now = Math.floor(Date.now() / 1000);
	await postEvent(
		subscriptionEvent('customer.subscription.deleted', {
			id: subscriptionId,
			status: 'canceled',
			created: now + 60,
			periodEnd: now - 10
		})
	);
	await signIn(page, base, EMAIL, 'une toute nouvelle phrase');
	await page.goto(`${base}/dashboard`);
	await expect(page.getByText('Abonnement :')).toContainText('résilié');
	await expect(page.getByText('Votre abonnement n’est plus actif')).toBeVisible();
});

test('deleting the account: password asked, account gone, the business told', async ({ page }) => {
	await signIn(page, base, EMAIL, 'une toute nouvelle phrase');
	await page.goto(`${base}/profil`);
	await page.getByText('Supprimer mon compte…').click();
	await page.getByLabel('Votre mot de passe, pour confirmer').fill('pas le bon mot de passe');
	await page.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
	await expect(page.getByText('Mot de passe incorrect.')).toBeVisible();
	const before = smtp.received.length;
	await page.getByLabel('Votre mot de passe, pour confirmer').fill('une toute nouvelle phrase');
	await page.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
	await expect(page).toHaveURL(`${base}/?compte=supprime`);
	const notice = await mailWhere((m) => !!m.parsed.subject?.startsWith('Compte supprimé'), before);
	expect(notice.envelopeTo).toEqual(['patron@atelier.test']);
	await page.goto(`${base}/login`);
	await page.getByLabel('Adresse e-mail').fill(EMAIL);
	await page.getByLabel('Mot de passe').fill('une toute nouvelle phrase');
	await page.getByRole('button', { name: 'Se connecter' }).click();
	await expect(page.getByText('Adresse e-mail ou mot de passe incorrect.')).toBeVisible();
});
