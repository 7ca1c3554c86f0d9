/**
 * Two-factor sign-in in the browser (issue "Trust", point 2): a member enrols from /profil with the QR code's key
 * and a code, keeps the recovery codes, and from then on signs in with password then code — a wrong or reused
 * code is refused with a French message, a recovery code works once; with and without JavaScript. With
 * ADMIN_2FA=required an admin without a second factor is sent to enrol before the admin opens.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { PASSWORD, register, untilHydrated } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { codeAt, keyOf } from '../../helpers/totp';

/** Enrols the signed-in user from /profil, returning the key (as the app would read it) and the recovery codes. */
async function enrol(page: Page, { base = '', javaScript = true } = {}) {
	await page.goto(`${base}/profil`);
	await expect(page.getByRole('heading', { name: 'Sécurité' })).toBeVisible();
	await page.getByRole('link', { name: 'Activer la double authentification' }).click();
	await page.getByRole('button', { name: 'Activer la double authentification' }).click();
	await expect(page.locator('figure.qr svg')).toBeVisible();
	// Started, the page is at its own address: no action in the URL, nothing posted again by a reload.
	await expect(page).toHaveURL(/\/profil\/securite$/);
	if (javaScript) await untilHydrated(page);
	const key = keyOf(await page.locator('code.key').innerText());
	await page.getByLabel(/code à six chiffres/).fill('000000');
	await page.getByRole('button', { name: 'Activer', exact: true }).click();
	await expect(page.getByText(/n’est pas le bon/)).toBeVisible();
	await page.getByLabel(/code à six chiffres/).fill(codeAt(key, new Date()));
	await page.getByRole('button', { name: 'Activer', exact: true }).click();
	await expect(page.getByRole('heading', { name: 'Vos codes de secours' })).toBeVisible();
	const codes = await page.locator('.codes code').allInnerTexts();
	expect(codes).toHaveLength(10);
	return { key, codes };
}

async function signOutAndPassword(page: Page, email: string) {
	await page.context().clearCookies();
	await page.goto('/login');
	await page.getByLabel('Adresse e-mail').fill(email);
	await page.getByLabel('Mot de passe').fill(PASSWORD);
	await page.getByRole('button', { name: 'Se connecter' }).click();
	await expect(page).toHaveURL(/\/login\/code$/);
}

async function typeCode(page: Page, code: string) {
	await page.getByLabel(/^Code (à six chiffres|de secours)$/).fill(code);
	await page.getByRole('button', { name: 'Vérifier' }).click();
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
		test.use({ javaScriptEnabled });

		test(
			'enrol, then sign in with password and code; a reused code and a recovery code',
			{ tag: '@drivers' },
			async ({ page, baseURL }) => {
				// Enrolment, five sign-ins (each a password hash) and three axe runs: 14–16 s alone, over 30 s beside the
				// other worker on a busy 2-core machine.
				test.setTimeout(90_000);
				const email = `deux-facteurs-${javaScriptEnabled}-${Date.now()}@exemple.fr`;
				await register(page, baseURL!, 'Deux Facteurs', email);
				await page.waitForURL(/\/dashboard/);
				const { key, codes } = await enrol(page, { javaScript: javaScriptEnabled });
				if (javaScriptEnabled) {
					await expectNoAxeViolation(page);
					await page.setViewportSize({ width: 360, height: 740 });
					await expectNoHorizontalScroll(page);
				}

				// The password alone opens nothing: the members' area still sends to the sign-in page.
				await signOutAndPassword(page, email);
				await page.goto('/dashboard');
				await expect(page).toHaveURL(/\/login\?redirectTo=/);

				await signOutAndPassword(page, email);
				if (javaScriptEnabled) await expectNoAxeViolation(page);
				// The code the enrolment used is spent: the app's next one (a step ahead is accepted for clock drift).
				const code = codeAt(key, new Date(Date.now() + 30_000));
				await typeCode(page, '123456');
				await expect(page.getByText(/n’est pas le bon/)).toBeVisible();
				await typeCode(page, code);
				await expect(page).toHaveURL(/\/dashboard/);

				// The same code a second time: refused, even after a fresh password.
				await signOutAndPassword(page, email);
				await typeCode(page, code);
				await expect(page.getByText(/déjà servi/)).toBeVisible();
				await typeCode(page, codes[0]!);
				await expect(page).toHaveURL(/\/dashboard/);
				await page.goto('/profil/securite');
				if (javaScriptEnabled) await untilHydrated(page);
				await expect(page.getByText('9 codes de secours', { exact: false })).toBeVisible();
				// Turned off by its owner, who proves it with a code.
				await page.getByLabel('Code de l’application ou code de secours').fill(codes[1]!);
				await page.getByRole('button', { name: 'Désactiver la double authentification' }).click();
				await expect(page.getByText('le mot de passe suffit de nouveau')).toBeVisible();
				await page.context().clearCookies();
				await page.goto('/login');
				await page.getByLabel('Adresse e-mail').fill(email);
				await page.getByLabel('Mot de passe').fill(PASSWORD);
				await page.getByRole('button', { name: 'Se connecter' }).click();
				await expect(page).toHaveURL(/\/dashboard/);
			}
		);
	});
}

test('the code page without a pending sign-in goes back to the password', async ({ page }) => {
	await page.context().clearCookies();
	await page.goto('/login/code');
	await expect(page).toHaveURL(/\/login$/);
});

test.describe('ADMIN_2FA=required', () => {
	let server: RunningServer;
	test.beforeAll(async () => {
		server = await startIsolatedServer({ ADMIN_2FA: 'required' });
	});
	test.afterAll(async () => {
		await server?.stop();
	});

	test('an admin without a second factor enrols before the admin opens; the API says 403', async ({
		page
	}) => {
		const admin = { name: 'Admin Strict', email: 'strict@exemple.fr', password: PASSWORD };
		expect((await page.request.post(`${server.url}/api/admin/setup`, { data: admin })).status()).toBe(201);
		await page.goto(`${server.url}/login`);
		await page.getByLabel('Adresse e-mail').fill(admin.email);
		await page.getByLabel('Mot de passe').fill(PASSWORD);
		await page.getByRole('button', { name: 'Se connecter' }).click();
		await page.goto(`${server.url}/admin`);
		await expect(page).toHaveURL(`${server.url}/profil/securite`);
		// Said once, by the page itself (it used to be said by a message above it too).
		await expect(page.getByText(/double authentification avant d’ouvrir l’administration/)).toHaveCount(1);
		await expect(page.getByText('Activez la double authentification pour ouvrir')).toHaveCount(0);
		const api = await page.request.get(`${server.url}/api/admin/site-images`);
		expect(api.status()).toBe(403);
		expect((await api.json()).detail).toContain('double authentification');

		await enrol(page, { base: server.url });
		await page.goto(`${server.url}/admin`);
		await expect(page).toHaveURL(`${server.url}/admin`);
		expect((await page.request.get(`${server.url}/api/admin/site-images`)).status()).toBe(200);
	});
});
