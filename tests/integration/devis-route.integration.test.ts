/**
 * The template for testing a route handler directly: the real `+server.ts` export, called with a `Request`,
 * against a test database, with the application's services replaced through the composition root. Milliseconds
 * per case, no browser, no server process; e2e keeps only what needs a browser.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import { leads, rateLimits } from '../../src/lib/server/db/schema';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import { outboxTransport } from '../../src/lib/server/mail/transport';
import { POST } from '../../src/routes/api/devis/+server';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;

beforeAll(async () => {
	database = await createTestDatabase();
	const outbox = mkdtempSync(path.join(tmpdir(), 'atelier-outbox-'));
	useDepsForTests({
		db: database.db,
		mail: { db: database.db, transport: outboxTransport(outbox), from: 'Atelier <no-reply@atelier.test>' }
	});
});
afterAll(async () => {
	await settleBackgroundTasks(5_000);
	useDepsForTests(null);
	await database.dispose();
});
beforeEach(async () => {
	await settleBackgroundTasks(5_000);
	await database.db.delete(leads);
	await database.db.delete(rateLimits);
});

const devis = {
	name: 'Jean Dupont',
	email: 'jean@exemple.fr',
	phone: '06 12 34 56 78',
	city: 'Anse',
	projectType: 'mur',
	message: 'Un mur de clôture de 20 mètres en pierre dorée.'
};

/** Calls the handler as SvelteKit would, from `address`. */
async function post(body: BodyInit, headers: Record<string, string>, address = '10.20.0.1') {
	const request = new Request('http://localhost/api/devis', { method: 'POST', body, headers });
	const event = { request, url: new URL(request.url), getClientAddress: () => address };
	return (POST as unknown as (e: typeof event) => Promise<Response>)(event);
}
const postJson = (data: unknown, address?: string) =>
	post(JSON.stringify(data), { 'content-type': 'application/json' }, address);

describe(`POST /api/devis, called directly, on ${driverName}`, () => {
	it('201: stores the request and answers its id', async () => {
		const response = await postJson(devis);
		expect(response.status).toBe(201);
		const { id } = await response.json();
		expect((await database.db.select().from(leads)).map((l) => l.id)).toEqual([id]);
	});

	it('400: names each field in error, and stores nothing', async () => {
		const response = await postJson({ ...devis, phone: 'abc', projectType: 'piscine' });
		expect(response.status).toBe(400);
		expect(response.headers.get('content-type')).toContain('application/problem+json');
		expect(Object.keys((await response.json()).errors).sort()).toEqual(['phone', 'projectType']);
		expect(await database.db.select().from(leads)).toHaveLength(0);
	});

	it('413: refuses a body past the limit before reading it', async () => {
		const response = await post('{}', {
			'content-type': 'application/json',
			'content-length': String(1024 * 1024)
		});
		expect(response.status).toBe(413);
	});

	it('415: refuses anything but JSON', async () => {
		const response = await post('name=Jean', { 'content-type': 'application/x-www-form-urlencoded' });
		expect(response.status).toBe(415);
	});

	it('429: limits an address, with Retry-After', async () => {
		let last: Response | null = null;
		for (let i = 0; i < 4; i++) last = await postJson({ ...devis, message: `${devis.message} (${i})` });
		expect(last!.status).toBe(429);
		expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
		expect((await postJson(devis, '10.20.0.2')).status).toBe(201);
	});
});
