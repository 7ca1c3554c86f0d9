/**
 * Trusted devices (issue "Trust", point 1): after a distributed guessing run on the account, the owner's known
 * browser signs in at once through the form, while an unknown browser with the right password is slowed down.
 * The addresses come from X-Forwarded-For (ADDRESS_HEADER), as behind a proxy, so that the guesses are spread.
 */
import type { BrowserContext } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { PASSWORD, register } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;
test.beforeAll(async () => {
	server = await startIsolatedServer({ ADDRESS_HEADER: 'X-Forwarded-For', XFF_DEPTH: '1' });
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
});

const EMAIL = 'proprietaire@exemple.fr';
const from = (address: string) => ({ 'x-forwarded-for': address });

async function signInWithForm(context: BrowserContext) {
	const page = await context.newPage();
	await page.goto(`${server.url}/login`);
	await page.getByLabel('Adresse e-mail', { exact: true }).fill(EMAIL);
	await page.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);
	await page.getByRole('button', { name: 'Se connecter' }).click();
	return page;
}

test(
	'the owner’s known browser signs in at once after a guessing run; an unknown one is slowed down',
	{ tag: '@drivers' },
	async ({ browser, playwright }) => {
		// Sixty-odd guesses, each a password hash: 28–32 s beside the other worker on a busy 2-core machine.
		test.setTimeout(90_000);
		const owner = await browser.newContext({ extraHTTPHeaders: from('10.40.0.1') });
		const page = await owner.newPage();
		await register(page, server.url, 'Propriétaire', EMAIL);
		await owner.clearCookies();
		// A first sign-in makes this browser known: an HttpOnly device cookie naming the account.
		await (await signInWithForm(owner)).waitForURL(`${server.url}/dashboard`);
		const device = (await owner.cookies()).find((c) => c.name === 'device');
		expect(device).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
		await owner.clearCookies({ name: 'session' });

		// An unknown browser waits on the sign-in page, its form filled with the right password.
		const stranger = await browser.newContext({ extraHTTPHeaders: from('10.42.0.1') });
		const strangerPage = await stranger.newPage();
		await strangerPage.goto(`${server.url}/login`);
		await strangerPage.getByLabel('Adresse e-mail', { exact: true }).fill(EMAIL);
		await strangerPage.getByLabel('Mot de passe', { exact: true }).fill(PASSWORD);

		// A distributed guessing run: wrong passwords, each from its own address and cookie-less client; at least 60,
		// and on until the slowed lane has just let one through (the moment it is sure to be closed for seconds).
		let guesses = 0;
		let refused = 0;
		for (let checked = false; guesses < 60 || !checked; guesses++) {
			const guesser = await playwright.request.newContext({
				extraHTTPHeaders: from(`10.41.${guesses % 250}.1`)
			});
			const response = await guesser.post(`${server.url}/login`, {
				form: { email: EMAIL, password: `mauvais ${guesses}` },
				headers: { origin: server.url, accept: 'text/html' },
				maxRedirects: 0
			});
			await guesser.dispose();
			if (response.status() === 429) refused++;
			else expect(response.status()).toBe(400);
			checked = guesses >= 60 && response.status() === 400;
		}
		expect(refused).toBeGreaterThanOrEqual(guesses - 10);

		// The unknown browser, right password: the slow-down, said in French.
		await strangerPage.getByRole('button', { name: 'Se connecter' }).click();
		await expect(strangerPage.getByText(/Trop de tentatives/).first()).toBeVisible();
		expect(new URL(strangerPage.url()).pathname).toBe('/login');

		// The owner's browser: in at once.
		const started = Date.now();
		await (await signInWithForm(owner)).waitForURL(`${server.url}/dashboard`);
		test.info().annotations.push({
			type: 'figure',
			description: `${refused}/${guesses} guesses answered 429; the known browser signed in in ${Date.now() - started} ms`
		});
		await stranger.close();
		await owner.close();
	}
);
