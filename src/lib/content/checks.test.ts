import { describe, expect, it } from 'vitest';
import { seedFields } from '$content/agency/seed';
import { draftShape, publishProblems } from './checks';
import { ARTICLE, ENTRIES, type FixedEntryId } from './model';

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
			problems: { title: ['Titre : caractère nul refusé.'] }
		});
		// Unknown keys are dropped, not stored.
		expect(draftShape(ENTRIES.contact.fields, { title: 'Contact', onerror: 'x' })).not.toHaveProperty(
			'fields.onerror'
		);
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
