import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginSchema, nameChangeSchema, passwordChangeSchema, registerSchema } from './auth';
import { contactSchema, devisSchema } from './leads';
import { siteImageUpdateSchema } from './site-images';
import { CONTROL_CHARACTER_MESSAGE } from './text';

const valid = {
	contact: {
		schema: contactSchema,
		data: {
			name: 'Claire Dupont',
			email: 'claire@exemple.fr',
			phone: '06 12 34 56 78',
			company: 'Dupont SARL',
			message: 'Bonjour,\n\tJe voudrais un site.',
			website: '',
			formToken: '1700000000000.abc'
		}
	},
	devis: {
		schema: devisSchema,
		data: {
			name: 'Claire Dupont',
			email: 'claire@exemple.fr',
			phone: '06 12 34 56 78',
			city: 'Lyon',
			projectType: 'mur',
			message: 'Un muret de 12 m.\r\nMerci.',
			website: '',
			formToken: '1700000000000.abc'
		}
	},
	login: { schema: loginSchema, data: { email: 'claire@exemple.fr', password: 'un mot de passe' } },
	register: {
		schema: registerSchema,
		data: { name: 'Claire', email: 'claire@exemple.fr', password: 'une phrase de passe' }
	},
	name: { schema: nameChangeSchema, data: { name: 'Claire' } },
	password: {
		schema: passwordChangeSchema,
		data: { currentPassword: 'ancien mot de passe', newPassword: 'nouvelle phrase de passe' }
	},
	siteImage: {
		schema: siteImageUpdateSchema,
		data: { key: 'hero', url: 'https://images.unsplash.com/x.jpg' }
	}
} satisfies Record<string, { schema: z.ZodType; data: Record<string, unknown> }>;

const cases = Object.entries(valid).flatMap(([form, { schema, data }]) =>
	Object.entries(data)
		.filter(([field, value]) => typeof value === 'string' && field !== 'projectType')
		.flatMap(([field]) =>
			['\u0000', '\u0007', '\u001b', '\u007f', '\u0090'].map((character) => ({
				form,
				field,
				character,
				code: character.codePointAt(0),
				schema,
				data
			}))
		)
);

describe('text fields refuse what PostgreSQL (or sense) refuses', () => {
	it.each(Object.entries(valid))(
		'accepts a valid %s form, line breaks and tabs in messages included',
		(_, { schema, data }) => {
			expect(schema.safeParse(data).success).toBe(true);
		}
	);

	it.each(cases)('$form.$field refuses U+$code', ({ field, character, schema, data }) => {
		const result = schema.safeParse({ ...data, [field]: `a${character}bcdefghijk` });
		expect(result.success).toBe(false);
		const issue = result.error!.issues.find((i) => i.path[0] === field);
		expect(issue?.message).toBe(CONTROL_CHARACTER_MESSAGE);
	});

	it('makes what a paste leaves for a line break a line feed in a message and a space on one line', () => {
		for (const pasted of ['\u000b', '\u000c', '\u2028', '\u2029', '\u0085', '\r']) {
			const parsed = contactSchema.parse({
				...valid.contact.data,
				company: `Numérique${pasted}SAS`,
				message: `Ligne 1${pasted}Ligne 2 ok`
			});
			expect(parsed.company).toBe('Numérique SAS');
			expect(parsed.message).toBe('Ligne 1\nLigne 2 ok');
		}
		expect(contactSchema.parse({ ...valid.contact.data, message: 'Bonjour\r\nRappelez-moi' }).message).toBe(
			'Bonjour\nRappelez-moi'
		);
	});

	it('refuses a line break in a one-line field, and keeps it in a message', () => {
		expect(contactSchema.safeParse({ ...valid.contact.data, name: 'Claire\nDupont' }).success).toBe(false);
		expect(contactSchema.safeParse({ ...valid.contact.data, message: 'Ligne 1\nLigne 2 ok' }).success).toBe(
			true
		);
	});
});
