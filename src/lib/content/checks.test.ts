import { describe, expect, it } from 'vitest';
import { seedFields } from '$content/agency/seed';
import { draftShape, publishProblems } from './checks';
import { ARTICLE, ENTRIES, type FixedEntryId } from './model';
import { demoSite } from './pages';

describe('the content model', () => {
	it("passes every entry's revision 1 (the seed) through the publish checks", () => {
		const seeds = seedFields();
		for (const id of Object.keys(ENTRIES) as FixedEntryId[]) {
			expect(publishProblems(ENTRIES[id].fields, seeds[id]), id).toEqual({});
			const shaped = draftShape(ENTRIES[id].fields, seeds[id]);
			expect('fields' in shaped && shaped.fields, id).toEqual(seeds[id]);
		}
	});

	it('saves a half-written draft, but refuses what is not the shape of the model, naming the field', () => {
		expect(draftShape(ENTRIES.home.fields, { title: 'Ac' })).toMatchObject({
			fields: { title: 'Ac', faq: [] }
		});
		expect(draftShape(ENTRIES.home.fields, { title: 12, faq: 'non' })).toEqual({
			problems: { title: ['Titre : un texte attendu.'], faq: ['Questions fréquentes : une liste attendu.'] }
		});
		expect(draftShape(ENTRIES.home.fields, { services: [{ title: ['x'] }] })).toEqual({
			problems: { 'services.0.title': ['Titre : un texte attendu.'] }
		});
		expect(draftShape(ENTRIES.home.fields, { title: 'a\u0000b' })).toMatchObject({
			problems: { title: ['Titre : caractère invisible non autorisé (U+0000), à retirer.'] }
		});
		// Unknown keys are dropped, not stored.
		expect(draftShape(ENTRIES.contact.fields, { title: 'Contact', onerror: 'x' })).not.toHaveProperty(
			'fields.onerror'
		);
	});

	it('keeps a pasted line break as the field’s own, and refuses every other control character, named', () => {
		// What Word leaves when pasting: a vertical tab. In a title, a space; in a text, a line feed.
		const pasted = draftShape(ARTICLE.fields, {
			title: 'Numérique\u000bSAS',
			description: 'Une ligne\u000bpuis une autre\r\net une troisième\u2028',
			body: 'Un paragraphe.\u000c\u000cUn autre.',
			cover: { value: '', alt: 'Un mur\u2029de pierre' }
		});
		expect(pasted).toMatchObject({
			fields: {
				title: 'Numérique SAS',
				description: 'Une ligne\npuis une autre\net une troisième\n',
				body: 'Un paragraphe.\n\nUn autre.',
				cover: { value: '', alt: 'Un mur de pierre' }
			}
		});
		for (const character of ['\u0001', '\u001b', '\u007f', '\u0085\u0090', '\u009f'])
			expect(
				draftShape(ARTICLE.fields, { title: `Titre${character}`, body: `Corps${character}` }),
				JSON.stringify(character)
			).toMatchObject({
				problems: {
					title: [
						expect.stringMatching(
							/^Titre : caractère invisible non autorisé \(U\+00[0-9A-F]{2}\), à retirer\.$/
						)
					],
					body: [expect.stringMatching(/^Texte : caractère invisible non autorisé/)]
				}
			});
		expect(
			draftShape(ENTRIES.home.fields, { faq: [{ q: 'Une\u0007 question ?', a: 'Oui.' }] })
		).toMatchObject({
			problems: { 'faq.0.q': [expect.stringContaining('U+0007')] }
		});
	});

	it('refuses a telephone number that cannot be called, and derives the international form from the one written', () => {
		const macon = seedFields().macon;
		expect(macon).not.toHaveProperty('phoneHref');
		for (const phone of ['04 74 00 12', '1234567890', 'appelez-nous', '+33 4 74 00 12 34 56'])
			expect(publishProblems(ENTRIES.macon.fields, { ...macon, phone }), phone).toEqual({
				phone: [expect.stringContaining('Téléphone : un numéro qui peut être appelé')]
			});
		for (const [phone, international] of [
			['04 74 00 12 34', '+33474001234'],
			['+33 4 74 00 12 34', '+33474001234'],
			['0033474001234', '+33474001234'],
			['+32 2 555 12 12', '+3225551212']
		]) {
			expect(publishProblems(ENTRIES.macon.fields, { ...macon, phone }), phone).toEqual({});
			expect(demoSite('macon', { ...macon, phone, phoneHref: '+33100000000' }, '').phoneHref).toBe(
				international
			);
		}
	});

	it('takes as a cover only a photo of the upload pipeline, never another object of the private bucket', () => {
		const photo = 'storage:0f0e0d0c-0b0a-4909-8807-060504030201.webp';
		const with_ = (value: string) => ({ title: 'Un titre', cover: { value, alt: 'Un mur de pierre' } });
		expect(draftShape(ARTICLE.fields, with_(photo))).toHaveProperty('fields');
		for (const value of [
			'storage:attestations/ABCD-1234.pdf',
			'storage:signatures/trainer.png',
			'storage:course/0f0e0d0c-0b0a-4909-8807-060504030201.webp',
			'storage:0f0e0d0c-0b0a-4909-8807-060504030201-w800.webp',
			'storage:../0f0e0d0c-0b0a-4909-8807-060504030201.webp',
			'https://ailleurs.example/x.webp'
		]) {
			const refused = draftShape(ARTICLE.fields, with_(value));
			expect(refused, value).toEqual({
				problems: { 'cover.value': [expect.stringContaining('aucun autre fichier du stockage')] }
			});
			expect(
				publishProblems(ARTICLE.fields, { ...with_(value).cover, cover: with_(value).cover }),
				value
			).toHaveProperty('cover.value');
		}
	});

	it('refuses to publish, naming each field in French: lengths, counts, slugs, covers, placeholders', () => {
		const home = { ...seedFields().home, title: 'Bof', services: [] };
		expect(publishProblems(ENTRIES.home.fields, home)).toEqual({
			title: ['Titre : entre 5 et 70 caractères (3 aujourd’hui).'],
			services: ['Services (une photo chacun) : 3 exactement (0 aujourd’hui).']
		});
		const faq = { ...seedFields().home, faq: [{ q: 'Une question ?', a: '' }] };
		expect(publishProblems(ENTRIES.home.fields, faq)).toEqual({
			'faq.0.a': ['Questions fréquentes › Question 1 › Réponse : à remplir.']
		});
		const article = {
			title: 'Un titre correct',
			description: 'Une description'.padEnd(60, '.'),
			slug: 'Mon Article',
			cover: { value: 'https://ailleurs.example/x.jpg', alt: '' },
			body: 'Texte {{company.secret}}'
		};
		expect(publishProblems(ARTICLE.fields, article)).toEqual({
			slug: [expect.stringContaining('Adresse (slug) : lettres minuscules')],
			'cover.value': [expect.stringContaining('Photo de couverture')],
			'cover.alt': ['Photo de couverture › Texte alternatif : entre 5 et 200 caractères.'],
			body: ['Texte : {{company.secret}} ne correspond à aucun champ de la fiche de l’entreprise.']
		});
	});
});
