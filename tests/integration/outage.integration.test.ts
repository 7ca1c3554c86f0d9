/**
 * Outages degrade, not fail (issue "Hardening", point 10): an error that means "the database cannot answer" is
 * told apart from a bug, and becomes 503 + Retry-After on the API and a kept form on the pages.
 */
import { sql } from 'drizzle-orm';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactSchema } from '../../src/lib/schemas/leads';
import { leads } from '../../src/lib/server/db/schema';
import { isDatabaseUnavailable } from '../../src/lib/server/db/unavailable';
import { OUTAGE_MESSAGE } from '../../src/lib/messages';
import { api } from '../../src/lib/server/http/api';
import { formFailure } from '../../src/lib/server/http/forms';
import { adminState } from '../../src/lib/server/auth/registration';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let live: TestDatabase;
let gone: TestDatabase;
beforeAll(async () => {
	live = await createTestDatabase();
	gone = await createTestDatabase();
	await gone.dispose();
});
afterAll(() => live.dispose());

const failureOf = (run: () => Promise<unknown>) =>
	run().then(
		() => null,
		(error: unknown) => error
	);

describe(`outages on ${driverName}`, () => {
	it('tell a database that cannot answer from a query that is wrong', async () => {
		const outage = await failureOf(() => gone.db.select().from(leads));
		const bug = await failureOf(() => live.db.execute(sql`select * from no_such_table`));
		expect(outage).toBeInstanceOf(Error);
		expect(bug).toBeInstanceOf(Error);
		expect(isDatabaseUnavailable(outage)).toBe(true);
		expect(isDatabaseUnavailable(bug)).toBe(false);
		expect(isDatabaseUnavailable({ code: 'ECONNREFUSED' })).toBe(true);
		expect(isDatabaseUnavailable(new Error('x', { cause: { code: '57P01' } }))).toBe(true);
	});

	it('answer an API request 503 with Retry-After, as problem details', async () => {
		const handler = api(async () => {
			await gone.db.select().from(leads);
			return new Response('never');
		});
		const event = {
			request: new Request('http://localhost/api/contact', { method: 'POST' }),
			url: new URL('http://localhost/api/contact')
		};
		const response = (await (handler as unknown as (e: typeof event) => Promise<Response>)(event))!;
		expect(response.status).toBe(503);
		expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(response.headers.get('content-type')).toContain('application/problem+json');
		expect((await response.json()).detail).toBe(OUTAGE_MESSAGE);
	});

	it('give a form back with what was typed, 503 and Retry-After', async () => {
		const typed = {
			name: 'Claire Dupont',
			email: 'claire@exemple.fr',
			message: 'Mon message, tapé avec soin.'
		};
		const body = new URLSearchParams(typed);
		const form = await superValidate(
			new Request('http://localhost/contact', { method: 'POST', body }),
			zod4(contactSchema)
		);
		const headers: Record<string, string> = {};
		const error = await failureOf(() => gone.db.select().from(leads));
		const failure = formFailure({ setHeaders: (h) => Object.assign(headers, h) }, form, error);
		expect(failure.status).toBe(503);
		expect(headers['retry-after']).toBeDefined();
		expect(failure.data.form.data).toMatchObject(typed);
		expect(failure.data.form.message).toEqual({ type: 'error', text: OUTAGE_MESSAGE });
	});

	it('let the sign-in pages show their form when they cannot tell whether an admin exists', async () => {
		expect(await adminState(gone.db)).toBe('unknown');
		expect(await adminState(live.db)).toBe('none');
		// A query that is wrong is still a bug, not an outage.
		const broken = { select: () => ({ from: () => ({ where: () => Promise.reject(new Error('syntax')) }) }) };
		await expect(adminState(broken as never)).rejects.toThrow('syntax');
	});
});
