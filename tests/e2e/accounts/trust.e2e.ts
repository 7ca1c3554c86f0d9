/**
 * The attacks of issue "Trust, part 2", against a running server with real e-mail (smtp-server):
 * - each re-authenticated action is carried out after /admin/confirmer, with and without JavaScript, and says so;
 * - the backup download asks for re-authentication and is e-mailed to every admin;
 * - the reset link with a second factor leads to /login/code, and ends the other sessions;
 * - a pending sign-in serves once, and not after a password change;
 * - someone with the password cannot keep the owner's known browser out of the code step;
 * - a stranger polling the sign-in with the e-mail keeps neither the owner's session from confirming nor the owner
 *   from getting in through the device link (last: it closes this server's address lane).
 * One server of its own (the last test closes 127.0.0.1's sign-in lane), its tests in order.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, PASSWORD, untilHydrated } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { useServerWithMailbox } from '../support/mailbox';
import { codeAt, keyOf } from '../../helpers/totp';

test.describe.configure({ mode: 'serial' });

const mailbox = useServerWithMailbox();
const mailWhere = mailbox.mailWhere;
const mailTo = (address: string, subject: string, from = 0) =>
	mailWhere((m) => m.envelopeTo.includes(address) && m.parsed.subject === subject, from);

const form = (ctx: APIRequestContext, path: string, fields: Record<string, string>) =>
	ctx.post(path, { form: fields, headers: { origin: mailbox.base, accept: 'text/html' }, maxRedirects: 0 });
const locationOf = (response: { headers(): Record<string, string> }) => response.headers()['location'] ?? '';

async function newContext(playwright: { request: { newContext(o: object): Promise<APIRequestContext> } }) {
	return playwright.request.newContext({ baseURL: mailbox.base });
}

async function registerMember(ctx: APIRequestContext, name: string, email: string) {
	const response = await form(ctx, '/register', { name, email, password: PASSWORD });
	expect(response.status(), await response.text()).toBe(303);
}

/** Enrols the context's signed-in account over HTTP, as the page does: the key from the page, then a code. */
async function enrolOver(ctx: APIRequestContext) {
	// Started, the page answers with its own address (303), where the key is shown.
	expect((await form(ctx, '/profil/securite?/start', {})).status()).toBe(303);
	const html = await (await ctx.get('/profil/securite')).text();
	const key = keyOf(/<code class="key[^"]*">([^<]+)<\/code>/.exec(html)![1]!);
	const past = new Date(Date.now() - 30_000);
	const confirmed = await form(ctx, '/profil/securite?/confirm', {
		__superform_id: 'confirm',
		code: codeAt(key, past)
	});
	const text = await confirmed.text();
	expect(confirmed.status(), text).toBe(200);
	const codes = [...text.matchAll(/<code[^>]*>([a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4})<\/code>/gi)].map(
		(m) => m[1]!
	);
	expect(codes).toHaveLength(10);
	return { key, codes };
}

/** This server's admin (a copy: its password changes here, the shared servers' admin keeps its own). */
const ADMIN = { ...E2E_ADMIN };
let admin: APIRequestContext;
test('the site has an admin', async ({ playwright }) => {
	admin = await newContext(playwright);
	expect((await admin.post('/api/admin/setup', { data: ADMIN })).status()).toBe(201);
});

/** A browser signed in as the admin, with no confirmation yet (a new session). */
async function freshAdminPage(browser: import('@playwright/test').Browser, javaScriptEnabled: boolean) {
	const context = await browser.newContext({ baseURL: mailbox.base, javaScriptEnabled });
	const response = await context.request.post('/login', {
		form: { email: ADMIN.email, password: PASSWORD },
		headers: { origin: mailbox.base, accept: 'text/html' },
		maxRedirects: 0
	});
	expect(response.status()).toBe(303);
	return { context, page: await context.newPage() };
}

async function actThenConfirm(page: Page, name: string, button: RegExp, javaScript: boolean) {
	await page.goto(`/admin/utilisateurs?q=${encodeURIComponent(name)}`);
	if (javaScript) await untilHydrated(page);
	const row = page.getByRole('row', { name: new RegExp(name) });
	if (button.test('Supprimer')) {
		// A deletion asks in the page first (no browser dialog), with and without JavaScript.
		await row.locator('summary', { hasText: 'Supprimer' }).click();
		await row.getByRole('button', { name: 'Oui, supprimer ce compte' }).click();
	} else await row.getByRole('button', { name: button }).click();
	await expect(page).toHaveURL(/\/admin\/confirmer\?redirectTo=/);
	await expect(page.getByText('Après confirmation, l’action sera faite')).toContainText(name);
	if (javaScript) await untilHydrated(page);
	await page.getByLabel('Mot de passe').fill(PASSWORD);
	await page.getByRole('button', { name: 'Confirmer' }).click();
	await expect(page).toHaveURL(/\/admin\/utilisateurs\?q=/);
}

for (const javaScriptEnabled of [true, false]) {
	test(`each re-authenticated action is carried out after the confirmation (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async ({
		browser,
		playwright
	}) => {
		test.setTimeout(120_000);
		const tag = javaScriptEnabled ? 'js' : 'html';
		const name = `Promu ${tag}`;
		const email = `promu-${tag}@exemple.fr`;
		const enrolled = `Protégé ${tag}`;
		const enrolledEmail = `protege-${tag}@exemple.fr`;
		const member = await newContext(playwright);
		await registerMember(member, name, email);
		const other = await newContext(playwright);
		await registerMember(other, enrolled, enrolledEmail);
		await enrolOver(other);

		// Each action from a new session: none has confirmed anything, so each goes through /admin/confirmer.
		let from = mailbox.smtp.received.length;
		let { context, page } = await freshAdminPage(browser, javaScriptEnabled);
		await actThenConfirm(page, name, /Rendre administrateur/, javaScriptEnabled);
		await expect(
			page.getByText('Identité confirmée : ce compte est maintenant administrateur.')
		).toBeVisible();
		await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Administrateur');
		await mailTo(email, 'Vous êtes maintenant administrateur', from);
		if (javaScriptEnabled) await expectNoAxeViolation(page);
		await context.close();

		from = mailbox.smtp.received.length;
		({ context, page } = await freshAdminPage(browser, javaScriptEnabled));
		await actThenConfirm(page, name, /Retirer les droits/, javaScriptEnabled);
		await expect(page.getByText('Identité confirmée : ce compte n’est plus administrateur.')).toBeVisible();
		await mailTo(email, 'Vos droits d’administrateur ont été retirés', from);
		await context.close();

		from = mailbox.smtp.received.length;
		({ context, page } = await freshAdminPage(browser, javaScriptEnabled));
		await actThenConfirm(page, enrolled, /Retirer la double auth/, javaScriptEnabled);
		await expect(page.getByText('Identité confirmée : double authentification retirée')).toBeVisible();
		await mailTo(enrolledEmail, 'Double authentification désactivée', from);
		await context.close();

		from = mailbox.smtp.received.length;
		({ context, page } = await freshAdminPage(browser, javaScriptEnabled));
		await actThenConfirm(page, name, /Supprimer/, javaScriptEnabled);
		await expect(page.getByText('Identité confirmée : compte supprimé')).toBeVisible();
		await expect(page.getByText('Aucun utilisateur ne correspond')).toBeVisible();
		// The person is told; the business is told who did it.
		await mailTo(email, 'Votre compte a été supprimé', from);
		const notice = await mailWhere((m) => !!m.parsed.subject?.startsWith(`Compte supprimé : ${name}`), from);
		expect(notice.parsed.text).toContain(`Supprimé par : ${ADMIN.email}`);
		await context.close();
		await member.dispose();
		await other.dispose();
	});
}

test('a link crafted by someone else brings no action to the confirmation', async ({ browser }) => {
	const { context, page } = await freshAdminPage(browser, true);
	await page.goto('/admin/confirmer?redirectTo=%2Fadmin%2Futilisateurs&action=grantAdmin');
	await expect(page.getByText('Après confirmation')).toHaveCount(0);
	await context.close();
});

test('the backup download asks for re-authentication, and every admin is told', async ({ playwright }) => {
	const ctx = await newContext(playwright);
	expect((await form(ctx, '/login', { email: ADMIN.email, password: PASSWORD })).status()).toBe(303);
	const refused = await ctx.get('/admin/sauvegarde/archive', { maxRedirects: 0 });
	expect(refused.status()).toBe(303);
	expect(locationOf(refused)).toBe('/admin/confirmer?redirectTo=%2Fadmin%2Fsauvegarde');
	// The page says plainly what the file is.
	expect(await (await ctx.get('/admin/sauvegarde')).text()).toContain('ouvre n’importe quel compte');
	const confirmed = await form(ctx, '/admin/confirmer?redirectTo=%2Fadmin%2Fsauvegarde', {
		secret: PASSWORD
	});
	expect(confirmed.status()).toBe(303);
	expect(locationOf(confirmed)).toBe('/admin/sauvegarde');
	const from = mailbox.smtp.received.length;
	const archive = await ctx.get('/admin/sauvegarde/archive');
	expect(archive.status()).toBe(200);
	expect(archive.headers()['content-type']).toBe('application/octet-stream');
	expect((await archive.body()).subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
	await mailTo(ADMIN.email, 'Une sauvegarde du site a été téléchargée', from);
	await ctx.dispose();
});

let recovery: string[] = [];
test('the reset link of an account with a second factor leads to the code, and ends the other sessions', async ({
	playwright
}) => {
	expect((await form(admin, '/login', { email: ADMIN.email, password: PASSWORD })).status()).toBe(303);
	({ codes: recovery } = await enrolOver(admin));
	const from = mailbox.smtp.received.length;
	const reader = await newContext(playwright);
	expect((await form(reader, '/mot-de-passe-oublie', { email: ADMIN.email })).status()).toBe(200);
	const reset = await mailTo(ADMIN.email, 'Réinitialiser votre mot de passe', from);
	const link = /http:\/\/[^\s]+\/mot-de-passe\/[\w-]{43}/.exec(reset.parsed.text ?? '')![0];
	const chosen = await form(reader, new URL(link).pathname, { password: `${PASSWORD} neuve` });
	expect(chosen.status()).toBe(303);
	expect(locationOf(chosen)).toBe('/login/code');
	// Whoever reads the mailbox has no session: the admin sends them away (home, CONTRACT §4).
	const closed = await reader.get('/admin', { maxRedirects: 0 });
	expect(closed.status()).toBe(303);
	expect(locationOf(closed)).toBe('/');
	// The admin's own session ended with the reset; they are told.
	expect((await admin.get('/admin', { maxRedirects: 0 })).status()).toBe(303);
	await mailTo(ADMIN.email, 'Votre mot de passe a changé', from);
	// With the code, the reset ends in the admin.
	const entered = await form(reader, '/login/code', { code: recovery.shift()! });
	expect(locationOf(entered)).toBe('/admin');
	await mailTo(ADMIN.email, 'Un code de secours a servi', from);
	await reader.dispose();
	ADMIN.password = `${PASSWORD} neuve`;
});

/** A member with a second factor, enrolled as the page does; returns what its authenticator and paper hold. */
async function memberWithSecondFactor(playwright: Parameters<typeof newContext>[0], email: string) {
	const ctx = await newContext(playwright);
	await registerMember(ctx, 'Membre Protégé', email);
	const enrolled = await enrolOver(ctx);
	await ctx.dispose();
	return { email, password: PASSWORD, ...enrolled };
}

test('a pending sign-in serves once, and not after a password change', async ({ playwright }) => {
	const member = await memberWithSecondFactor(playwright, 'en-attente@exemple.fr');
	const ctx = await newContext(playwright);
	expect(locationOf(await form(ctx, '/login', { email: member.email, password: member.password }))).toBe(
		'/login/code'
	);
	const pendingCookies = (await ctx.storageState()).cookies.filter((c) => c.name === 'pending-sign-in');
	expect(pendingCookies).toHaveLength(1);
	expect(locationOf(await form(ctx, '/login/code', { code: member.codes[0]! }))).toBe('/dashboard');
	// The same pending sign-in, replayed from another browser with another valid code: back to the password.
	const replay = await playwright.request.newContext({
		baseURL: mailbox.base,
		storageState: { cookies: pendingCookies, origins: [] }
	});
	const replayed = await form(replay, '/login/code', { code: member.codes[1]! });
	expect(replayed.status()).toBe(303);
	expect(locationOf(replayed)).toBe('/login');

	// A sign-in begun with the old password cannot be completed once the password changed.
	const begun = await newContext(playwright);
	expect(locationOf(await form(begun, '/login', { email: member.email, password: member.password }))).toBe(
		'/login/code'
	);
	const changed = await form(ctx, '/profil?/password', {
		__superform_id: 'password',
		currentPassword: member.password,
		newPassword: `${PASSWORD} encore`
	});
	expect(changed.status()).toBe(200);
	expect(await changed.text()).toContain('Mot de passe modifié');
	expect(locationOf(await form(begun, '/login/code', { code: member.codes[2]! }))).toBe('/login');
	await Promise.all([ctx.dispose(), replay.dispose(), begun.dispose()]);
});

test('someone with the password cannot keep the owner’s known browser out of the code step', async ({
	playwright
}) => {
	const member = await memberWithSecondFactor(playwright, 'vise@exemple.fr');
	// The owner's browser: known to the account since its last full sign-in.
	const owner = await newContext(playwright);
	expect(locationOf(await form(owner, '/login', { email: member.email, password: member.password }))).toBe(
		'/login/code'
	);
	expect(locationOf(await form(owner, '/login/code', { code: member.codes[0]! }))).toBe('/dashboard');
	const device = (await owner.storageState()).cookies.filter((c) => c.name === 'device');
	expect(device).toHaveLength(1);
	await owner.dispose();

	// The password holder, from a browser of their own: wrong codes until the code step refuses even a right one.
	const thief = await newContext(playwright);
	expect(locationOf(await form(thief, '/login', { email: member.email, password: member.password }))).toBe(
		'/login/code'
	);
	const statuses = [];
	for (let i = 0; i < 7; i++) statuses.push((await form(thief, '/login/code', { code: '000000' })).status());
	expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
	expect(statuses.slice(5)).toEqual([429, 429]);
	expect((await form(thief, '/login/code', { code: member.codes[1]! })).status()).toBe(429);
	await thief.dispose();

	// The owner, back on their known browser with no session: password, then the right code, in at once.
	const back = await playwright.request.newContext({
		baseURL: mailbox.base,
		storageState: { cookies: device, origins: [] }
	});
	expect(locationOf(await form(back, '/login', { email: member.email, password: member.password }))).toBe(
		'/login/code'
	);
	expect(locationOf(await form(back, '/login/code', { code: codeAt(member.key, new Date()) }))).toBe(
		'/dashboard'
	);
	await back.dispose();
});

test('a stranger polling the sign-in keeps the owner out of nothing', async ({ playwright, browser }) => {
	test.setTimeout(120_000);
	const ownerEmail = 'proprietaire@exemple.fr';
	const owner = await newContext(playwright);
	await registerMember(owner, 'Propriétaire', ownerEmail);

	// The stranger: wrong passwords for the owner's e-mail, one every 50 ms, for as long as the test runs.
	const stranger = await newContext(playwright);
	let polling = true;
	let polled = 0;
	const poller = (async () => {
		while (polling && polled < 400) {
			await form(stranger, '/login', { email: ownerEmail, password: 'devine devine' }).catch(() => null);
			polled++;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	})();
	await expect
		.poll(async () => (await form(stranger, '/login', { email: ownerEmail, password: 'x' })).status())
		.toBe(429);

	// The owner's session: password change and e-mail change, each at the first try.
	const changed = await form(owner, '/profil?/password', {
		__superform_id: 'password',
		currentPassword: PASSWORD,
		newPassword: `${PASSWORD} du propriétaire`
	});
	expect(changed.status()).toBe(200);
	expect(await changed.text()).toContain('Mot de passe modifié');
	const emailChange = await form(owner, '/profil?/email', {
		__superform_id: 'email',
		newEmail: 'proprietaire@nouveau.fr',
		emailPassword: `${PASSWORD} du propriétaire`
	});
	expect(emailChange.status()).toBe(200);

	// A new browser meets the closed lane, and is offered the link; the link makes it known. Once the account's
	// slow-down has grown (a stranger's 429 that asks 10 s or more): the owner's attempt just after meets it closed.
	// While its waits are short, the slow-down may let the owner in between two of the poller's guesses, as a pace
	// does — and the poller's refused guesses give their address's places back, so « more than 35 requests », the
	// wait this used, could come with the lane still opening every second or two (it let the owner in, in CI).
	await expect
		.poll(
			async () => {
				const answer = await form(stranger, '/login', { email: ownerEmail, password: 'x' });
				return answer.status() === 429 ? Number(answer.headers()['retry-after']) : 0;
			},
			{ timeout: 60_000 }
		)
		.toBeGreaterThanOrEqual(10);
	const context = await browser.newContext({ baseURL: mailbox.base, viewport: { width: 360, height: 740 } });
	const page = await context.newPage();
	await page.goto('/login');
	await page.getByLabel('Adresse e-mail').fill(ownerEmail);
	await page.getByLabel('Mot de passe').fill(`${PASSWORD} du propriétaire`);
	await page.getByRole('button', { name: 'Se connecter' }).click();
	await expect(page.getByRole('heading', { name: 'C’est bien votre compte ?' })).toBeVisible();
	await expectNoHorizontalScroll(page);
	const from = mailbox.smtp.received.length;
	await page.getByRole('button', { name: 'Recevoir un lien pour ce navigateur' }).click();
	await expect(
		page.getByText('un lien pour reconnaître ce navigateur vient de lui être envoyé')
	).toBeVisible();
	const mail = await mailTo(ownerEmail, 'Reconnaître votre navigateur', from);
	const link = /http:\/\/[^\s]+\/login\/navigateur\/[\w-]{43}/.exec(mail.parsed.text ?? '')![0];
	await page.goto(link);
	await page.getByRole('button', { name: 'Reconnaître ce navigateur' }).click();
	await expect(page.getByText('Ce navigateur est maintenant reconnu')).toBeVisible();
	await expectNoAxeViolation(page);
	await page.getByLabel('Adresse e-mail').fill(ownerEmail);
	await page.getByLabel('Mot de passe').fill(`${PASSWORD} du propriétaire`);
	await page.getByRole('button', { name: 'Se connecter' }).click();
	await expect(page).toHaveURL(`${mailbox.base}/dashboard`);
	// The link served once.
	await page.goto(link);
	await page.getByRole('button', { name: 'Reconnaître ce navigateur' }).click();
	await expect(page.getByText('Ce lien a déjà servi, a expiré ou n’est pas valable.')).toBeVisible();

	polling = false;
	await poller;
	console.info(`stranger's poller: ${polled} requests`);
	await Promise.all([context.close(), owner.dispose(), stranger.dispose()]);
});
