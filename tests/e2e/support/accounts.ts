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
