import { describe, expect, it } from 'vitest';
import { leadIdSchema } from '$lib/schemas/leads';
import { slotUrlSchema } from '$lib/schemas/site-image-actions';
import { NotFoundError } from '../errors';
import { formFields, schemaAction } from './forms';

const form = (fields: Record<string, string>) =>
	new Request('http://localhost/', { method: 'POST', body: new URLSearchParams(fields) });

describe('schemaAction: one-field admin actions parse their form with a schema', () => {
	it('runs the task with the parsed input and echoes the fields that name the item', async () => {
		const fields = await formFields(form({ key: 'hero', url: '  https://images.exemple.fr/a.jpg ' }));
		const result = await schemaAction(fields, slotUrlSchema, ['key'], async (input) => ({
			seen: input
		}));
		expect(result).toEqual({
			key: 'hero',
			seen: { key: 'hero', url: 'https://images.exemple.fr/a.jpg' }
		});
	});

	it('answers 400 with the French messages and never runs the task on invalid input', async () => {
		let ran = false;
		const fields = await formFields(form({ key: 'hero', url: '   ' }));
		const result = await schemaAction(fields, slotUrlSchema, ['key'], async () => ((ran = true), {}));
		expect(ran).toBe(false);
		// The valid key still says which card the error belongs to.
		expect(result).toMatchObject({
			status: 400,
			data: { key: 'hero', error: 'Indiquez une adresse (https://…).' }
		});

		const notAnId = await schemaAction(
			await formFields(form({ id: '../x' })),
			leadIdSchema,
			['id'],
			async () => ({})
		);
		expect(notAnId).toMatchObject({ status: 400, data: { error: 'Demande inconnue.' } });
		expect('id' in (notAnId as { data: object }).data).toBe(false);
	});

	it('turns a typed error of the task into its status and French text', async () => {
		const id = '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';
		const result = await schemaAction(await formFields(form({ id })), leadIdSchema, ['id'], async () => {
			throw new NotFoundError('Demande introuvable.');
		});
		expect(result).toMatchObject({ status: 404, data: { id, error: 'Demande introuvable.' } });
	});

	it('reads a body that is not a form as no fields', async () => {
		const fields = await formFields(new Request('http://localhost/', { method: 'POST', body: '{"id":1}' }));
		expect(fields).toEqual({});
	});
});
