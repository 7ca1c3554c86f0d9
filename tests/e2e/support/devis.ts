import type { Page } from '@playwright/test';
import { TEST_WAITS } from './waits';

const MIN_FILL_MS = TEST_WAITS.formMinFillMs;

export interface DevisFields {
	name: string;
	email: string;
	phone: string;
	city: string;
	/** The value of an option of « Type de projet ». */
	projectType: string;
	message: string;
}

/**
 * Fills the quote form of the page open at `/devis` as a person does — taking longer than the time trap's
 * MIN_FILL_MS — and sends it. The caller checks what the page says next.
 */
export async function sendDevisAsAPerson(page: Page, fields: DevisFields): Promise<void> {
	await page.getByLabel('Nom').fill(fields.name);
	await page.getByLabel('Adresse e-mail').fill(fields.email);
	await page.getByLabel('Téléphone').fill(fields.phone);
	await page.getByLabel('Commune du chantier').fill(fields.city);
	await page.getByLabel('Type de projet').selectOption(fields.projectType);
	await page.getByLabel('Décrivez vos travaux').fill(fields.message);
	await page.waitForTimeout(MIN_FILL_MS + 200);
	await page.getByRole('button', { name: 'Envoyer ma demande de devis' }).click();
}
