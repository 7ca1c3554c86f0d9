/**
 * Sessions on /profil (issue "Trust", point 5): a member sees where they are signed in (device, network, last
 * use), ends one other session or all of them, with and without JavaScript; the ended browser is signed out.
 */
import type { Browser } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { PASSWORD, register } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';

test.describe.configure({ mode: 'serial' });

const IPHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const email = (tag: string) => `sessions-${tag}-${Date.now()}@exemple.fr`;

/** A browser of its own, signed in to the account through the form. */
async function signedInBrowser(browser: Browser, baseURL: string, address: string, options = {}) {
	const context = await browser.newContext({ baseURL, ...options });
	const page = await context.newPage();
	await page.goto('/login');
	await page.getByLabel('Adresse e-mail', { exact: true }).fill(address);
	await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
	await page.getByRole('button', { name: 'Se connecter' }).click();
	await page.waitForURL((url) => url.pathname !== '/login');
	return { context, page };
}

for (const javaScriptEnabled of [true, false])
	test(
		`a member ends another session from /profil, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`,
		{ tag: '@drivers' },
		async ({ browser, baseURL }) => {
			// Three browsers, four sign-ins (each a password hash) and axe: near 30 s beside the other worker on a busy
			// 2-core machine (27–28 s measured).
			test.setTimeout(90_000);
			const address = email(javaScriptEnabled ? 'js' : 'nojs');
			const first = await browser.newContext({ baseURL });
			const registering = await first.newPage();
			await register(registering, baseURL!, 'Hugo Martin', address);
			await registering.waitForURL((url) => url.pathname !== '/register');
			// Signed out: that session ends with it.
			const out = await registering.request.post('/logout', {
				form: { bye: '1' },
				headers: { origin: baseURL!, accept: 'text/html' },
				maxRedirects: 0
			});
			expect(out.status()).toBe(303);
			await first.close();

			const desk = await signedInBrowser(browser, baseURL!, address, {
				javaScriptEnabled,
				viewport: { width: 360, height: 800 }
			});
			const phone = await signedInBrowser(browser, baseURL!, address, { userAgent: IPHONE });

			await desk.page.goto('/profil');
			const sessions = desk.page.getByRole('region', { name: 'Mes sessions' }).getByRole('listitem');
			await expect(sessions).toHaveCount(2);
			await expect(sessions.filter({ hasText: 'cette session' })).toContainText('Chrome sur Linux');
			await expect(sessions.filter({ hasText: 'Safari sur iPhone' })).toContainText(
				'réseau local (127.0.0.0/24)'
			);
			await expectNoHorizontalScroll(desk.page);
			if (javaScriptEnabled) await expectNoAxeViolation(desk.page);

			await desk.page.getByRole('button', { name: 'Déconnecter Safari sur iPhone' }).click();
			await expect(desk.page.getByText('Session déconnectée.')).toBeVisible();
			await expect(sessions).toHaveCount(1);

			// The phone is signed out at its next request.
			await phone.page.goto('/profil');
			await expect(phone.page).toHaveURL(/\/login\?redirectTo=%2Fprofil$/);
			await phone.context.close();
			await desk.context.close();
		}
	);

test('« Déconnecter toutes les autres sessions » keeps only this one', async ({ browser, baseURL }) => {
	const address = email('all');
	const first = await browser.newContext({ baseURL });
	const page = await first.newPage();
	await register(page, baseURL!, 'Lina Morel', address);
	await page.waitForURL((url) => url.pathname !== '/register');
	const others = [
		await signedInBrowser(browser, baseURL!, address, { userAgent: IPHONE }),
		await signedInBrowser(browser, baseURL!, address)
	];
	await page.goto('/profil');
	const sessions = page.getByRole('region', { name: 'Mes sessions' }).getByRole('listitem');
	await expect(sessions).toHaveCount(3);
	await page.getByRole('button', { name: 'Déconnecter toutes les autres sessions' }).click();
	await expect(page.getByText('Vos autres sessions sont déconnectées.')).toBeVisible();
	await expect(sessions).toHaveCount(1);
	for (const other of others) {
		await other.page.goto('/dashboard');
		await expect(other.page).toHaveURL(/\/login/);
		await other.context.close();
	}
	// A handle that is not one of the member's sessions is answered, not obeyed.
	const forged = await page.request.post('/profil?/endSession', {
		form: { handle: 'f'.repeat(32) },
		headers: { origin: baseURL!, accept: 'application/json', 'x-sveltekit-action': 'true' }
	});
	expect(await forged.text()).toContain('déjà terminée');
	await first.close();
});
