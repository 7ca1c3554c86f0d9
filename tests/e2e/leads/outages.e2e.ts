/**
 * Outages degrade, not fail (issue 9, point 10), on the built server: an SMTP server that never answers does
 * not hold a visitor's request, and with the database gone the public forms answer 503 with Retry-After and
 * keep what the visitor typed.
 */
import { createServer, type Socket } from 'node:net';
import { expect, test } from '../support/fixtures';
import { MIN_FILL_MS } from '../../../src/lib/server/leads/form-token';
import { OUTAGE_RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE_MESSAGE } from '../../../src/lib/server/errors';
import { SMTP_TIMEOUTS } from '../../../src/lib/server/mail/transport';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { startIsolatedServer, startServer } from '../support/server';

test.describe.configure({ mode: 'serial' });

const contact = {
	name: 'Anne Martin',
	email: 'anne@exemple.fr',
	message: 'Bonjour, je voudrais un audit de mon site.'
};

test('an SMTP server that accepts and never answers does not hold POST /api/contact', async () => {
	const sockets = new Set<Socket>();
	const silent = createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => {});
	});
	await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
	const port = (silent.address() as { port: number }).port;
	const server = await startIsolatedServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
	try {
		const started = Date.now();
		const response = await fetch(`${server.url}/api/contact`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(contact)
		});
		expect(response.status).toBe(201);
		// Answered before the transport could even give up waiting for the server's greeting.
		expect(Date.now() - started).toBeLessThan(SMTP_TIMEOUTS.greetingMs);
		// The e-mails were under way: the silent server holds their connections.
		await expect.poll(() => sockets.size).toBeGreaterThan(0);
	} finally {
		expect(await server.stop()).toBe(0);
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => silent.close(resolve));
	}
});

test('with the database gone, the public forms answer 503 + Retry-After and keep what was typed', async ({
	browser
}) => {
	test.skip(!serverUrl, 'needs DATABASE_URL: the test drops the server database under the running app');
	const database = await createEmptyPostgresDatabase();
	const server = await startServer({ DATABASE_URL: database.url });
	const context = await browser.newContext({ javaScriptEnabled: false });
	try {
		const page = await context.newPage();
		await page.goto(`${server.url}/contact`);
		await page.getByLabel('Nom', { exact: true }).fill(contact.name);
		await page.getByLabel('Adresse e-mail').fill(contact.email);
		await page.getByLabel('Votre message').fill(contact.message);
		await page.waitForTimeout(MIN_FILL_MS + 200);

		await database.drop();

		const api = await fetch(`${server.url}/api/contact`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(contact)
		});
		expect(api.status).toBe(503);
		expect(api.headers.get('retry-after')).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
		expect((await api.json()).detail).toBe(SERVICE_UNAVAILABLE_MESSAGE);

		const [answer] = await Promise.all([
			page.waitForResponse((r) => r.request().method() === 'POST'),
			page.getByRole('button', { name: 'Envoyer ma demande' }).click()
		]);
		expect(answer.status()).toBe(503);
		expect(answer.headers()['retry-after']).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
		await expect(page.getByText(SERVICE_UNAVAILABLE_MESSAGE)).toBeVisible();
		await expect(page.getByLabel('Nom', { exact: true })).toHaveValue(contact.name);
		await expect(page.getByLabel('Adresse e-mail')).toHaveValue(contact.email);
		await expect(page.getByLabel('Votre message')).toHaveValue(contact.message);

		await page.goto(`${server.url}/login`);
		await page.getByLabel('Adresse e-mail').fill(contact.email);
		await page.getByLabel('Mot de passe').fill('une phrase de passe solide');
		const [signIn] = await Promise.all([
			page.waitForResponse((r) => r.request().method() === 'POST'),
			page.getByRole('button', { name: 'Se connecter' }).click()
		]);
		expect(signIn.status()).toBe(503);
		await expect(page.getByText(SERVICE_UNAVAILABLE_MESSAGE)).toBeVisible();
		await expect(page.getByLabel('Adresse e-mail')).toHaveValue(contact.email);
	} finally {
		await context.close();
		await server.stop();
	}
});
