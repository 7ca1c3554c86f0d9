import type { Page } from '@playwright/test';

export const PASSWORD = 'une phrase de passe solide';

export async function fillAndSubmit(page: Page, fields: Record<string, string>, button: string | RegExp) {
	for (const [label, value] of Object.entries(fields))
		await page.getByLabel(label, { exact: true }).fill(value);
	await page.getByRole('button', { name: button }).click();
}

/** Submits, then waits for the outcome: a navigation away from the form's page, or an error message on it. */
async function submitAndSettle(page: Page, fields: Record<string, string>, button: string) {
	const formPath = new URL(page.url()).pathname;
	await fillAndSubmit(page, fields, button);
	await Promise.race([
		page.waitForURL((url) => url.pathname !== formPath),
		page.getByRole('alert').first().waitFor()
	]);
}

export async function register(page: Page, base: string, name: string, email: string, password = PASSWORD) {
	await page.goto(`${base}/register`);
	await fillAndSubmit(
		page,
		{ Nom: name, 'Adresse e-mail': email, 'Mot de passe': password },
		'Créer mon compte'
	);
}

export async function signIn(page: Page, base: string, email: string, password = PASSWORD) {
	await page.goto(`${base}/login`);
	await submitAndSettle(page, { 'Adresse e-mail': email, 'Mot de passe': password }, 'Se connecter');
}

export const E2E_ADMIN = { name: 'Admin E2E', email: 'admin-e2e@exemple.fr', password: PASSWORD };

/**
 * Signs the page's context in as the shared server's admin, creating that admin first if the site has none.
 * Every e2e file may call it, in any order. It signs in first and sets up only when that fails: setup is rate
 * limited per address like any public form, and every test here comes from 127.0.0.1.
 */
export async function signInAsAdmin(page: Page) {
	const origin = process.env.E2E_BASE_URL!;
	const signIn = () =>
		page.request.post('/login', {
			form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
			headers: { origin, accept: 'text/html' },
			maxRedirects: 0
		});
	if ((await signIn()).status() === 303) return;
	const setup = await page.request.post('/api/admin/setup', { data: E2E_ADMIN });
	if (setup.status() !== 201) throw new Error(`admin setup answered ${setup.status()}`);
	const login = await signIn();
	if (login.status() !== 303) throw new Error(`admin sign-in answered ${login.status()}`);
}

/** Signs in over HTTP without a browser (303 expected) and returns the session cookie, `name=value`. */
export async function sessionCookieFor(url: string, credentials: { email: string; password: string }) {
	const login = await fetch(`${url}/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, accept: 'text/html' },
		body: new URLSearchParams({ email: credentials.email, password: credentials.password }),
		redirect: 'manual'
	});
	if (login.status !== 303) throw new Error(`sign-in answered ${login.status}`);
	return login.headers.getSetCookie()[0]!.split(';')[0]!;
}

/** Creates the first admin of a server that has none, and returns its session cookie. */
export async function firstAdminCookie(
	url: string,
	admin: { name: string; email: string; password: string }
) {
	const setup = await fetch(`${url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(admin)
	});
	if (setup.status !== 201) throw new Error(`admin setup answered ${setup.status}`);
	return sessionCookieFor(url, admin);
}

/**
 * On a server of its own (no admin yet), creates the first admin and returns an API context signed in as it.
 * Dispose of it when done.
 */
export async function adminApiOn(baseURL: string) {
	const { request } = await import('@playwright/test');
	const admin = await request.newContext({ baseURL });
	const setup = await admin.post('/api/admin/setup', { data: E2E_ADMIN });
	if (setup.status() !== 201) throw new Error(`admin setup answered ${setup.status()}`);
	const login = await admin.post('/login', {
		form: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
		headers: { origin: baseURL, accept: 'text/html' },
		maxRedirects: 0
	});
	if (login.status() !== 303) throw new Error(`admin sign-in answered ${login.status()}`);
	return admin;
}

/**
 * With JavaScript, after a full page load: waits until SvelteKit has hydrated the page (the root layout marks
 * `<html data-hydrated>`), since hydration resets what a test typed or chose before it. Pages without the client
 * never get the mark: call it only where JavaScript runs.
 */
export async function untilHydrated(page: Page) {
	await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}
