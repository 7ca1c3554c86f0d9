import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import {
	loginSchema,
	nameChangeSchema,
	passwordChangeSchema,
	registerSchema,
	setupAdminSchema
} from './auth';
import { contactSchema, devisSchema } from './leads';
import { siteImageUpdateSchema } from './site-images';
import { CONTROL_CHARACTERS_MESSAGE, hasForbiddenControl, textField } from './text';

const password = 'une phrase de passe solide';
/** Every schema that takes input, with a valid value for each of its fields. */
const schemas: [string, z.ZodObject, Record<string, string>][] = [
	[
		'contact',
		contactSchema,
		{
			name: 'Anne Martin',
			email: 'anne@exemple.fr',
			phone: '06 12 34 56 78',
			company: 'Martin SARL',
			message: 'Bonjour,\n\tun audit de mon site.',
			website: '',
			formToken: '1700000000000.abc'
		}
	],
	[
		'devis',
		devisSchema,
		{
			name: 'Jean Dupont',
			email: 'jean@exemple.fr',
			phone: '06 12 34 56 78',
			city: 'Anse',
			projectType: 'mur',
			message: 'Un mur de clôture.\r\nAccès facile.',
			website: '',
			formToken: '1700000000000.abc'
		}
	],
	['login', loginSchema, { email: 'a@exemple.fr', password }],
	['register', registerSchema, { name: 'Anne', email: 'a@exemple.fr', password }],
	['setup-admin', setupAdminSchema, { name: 'Anne', email: 'a@exemple.fr', password }],
	['profile name', nameChangeSchema, { name: 'Anne' }],
	['profile password', passwordChangeSchema, { currentPassword: password, newPassword: password }],
	['site image', siteImageUpdateSchema, { key: 'home.hero', url: 'https://images.example/a.jpg' }]
];

describe('text fields refuse control characters', () => {
	it.each(schemas)('the %s schema accepts its valid values', (_, schema, valid) => {
		expect(schema.safeParse(valid).success).toBe(true);
	});

	const cases = schemas.flatMap(([label, schema, valid]) =>
		Object.keys(schema.shape)
			// An enum is not free text: a NUL cannot be one of its values anyway.
			.filter((field) => field !== 'projectType')
			.flatMap((field) =>
				['\u0000', '\u001b', '\u007f'].map((c) => [label, field, c, schema, valid] as const)
			)
	);
	it.each(cases)('%s: %s with %j is refused, naming the field', (_, field, c, schema, valid) => {
		const result = schema.safeParse({ ...valid, [field]: `${valid[field]}${c}x` });
		expect(result.success).toBe(false);
		expect(result.error!.issues).toEqual([
			expect.objectContaining({ path: [field], message: CONTROL_CHARACTERS_MESSAGE })
		]);
	});

	it('every string field of every schema is checked (no field left to a bare z.string())', () => {
		const fields = cases.map(([label, field]) => `${label}.${field}`);
		expect(new Set(fields).size * 3).toBe(cases.length);
		expect(fields).toContain('contact.message');
		expect(fields).toContain('site image.url');
	});

	it('lets tab and line breaks through in multi-line text only', () => {
		expect(hasForbiddenControl('a\tb\r\nc', true)).toBe(false);
		expect(hasForbiddenControl('a\tb', false)).toBe(true);
		expect(hasForbiddenControl('a\nb', false)).toBe(true);
		expect(hasForbiddenControl('a\u0000b', true)).toBe(true);
		expect(hasForbiddenControl('Zoé & fils — « ok » 😀', false)).toBe(false);
		expect(textField({ multiline: true }).safeParse('ligne 1\nligne 2').success).toBe(true);
	});

	it('gives a no-JS form a French error under the field, keeping what was typed', async () => {
		const data = new FormData();
		for (const [key, value] of Object.entries({
			name: 'Anne\u0000',
			email: 'anne@exemple.fr',
			message: 'Un message assez long.'
		}))
			data.set(key, value);
		const form = await superValidate(data, zod4(contactSchema));
		expect(form.valid).toBe(false);
		expect(form.errors.name).toEqual([CONTROL_CHARACTERS_MESSAGE]);
		expect(form.data.message).toBe('Un message assez long.');
	});
});
