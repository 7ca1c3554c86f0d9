import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	MEMO_ENTRIES,
	MEMO_MAX_AGE_MS,
	MEMO_MAX_LENGTH,
	NBSP,
	NNBSP,
	de,
	memoSize,
	typeset
} from './typography';

describe('typeset', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it.each([
		['Combien coûte un site ?', `Combien coûte un site${NNBSP}?`],
		[
			'Merci ! Votre demande est reçue : à bientôt ; promis',
			`Merci${NNBSP}! Votre demande est reçue${NNBSP}: à bientôt${NNBSP}; promis`
		],
		['Vraiment?!', `Vraiment${NNBSP}?!`],
		['Note: rien', `Note${NNBSP}: rien`],
		['« Superbe travail »', `«${NNBSP}Superbe travail${NNBSP}»`],
		['«Superbe»', `«${NNBSP}Superbe${NNBSP}»`]
	])('puts a narrow no-break space before double signs and inside guillemets: %s', (input, output) => {
		expect(typeset(input)).toBe(output);
	});

	it.each([
		['Appelez le 04 78 00 00 00.', `Appelez le 04${NBSP}78${NBSP}00${NBSP}00${NBSP}00.`],
		['SIRET 912 345 678 00015', `SIRET 912${NBSP}345${NBSP}678${NBSP}00015`],
		['TVA FR27 912 345 678', `TVA FR27${NBSP}912${NBSP}345${NBSP}678`],
		['à partir de 1 900 € HT', `à partir de 1${NBSP}900${NBSP}€ HT`],
		['réponse sous 48 h, à 30 km, 50 % d’eau', `réponse sous 48${NBSP}h, à 30${NBSP}km, 50${NBSP}% d’eau`]
	])('keeps numbers and their units from breaking: %s', (input, output) => {
		expect(typeset(input)).toBe(output);
	});

	it.each([
		['les jardins de Annecy', 'les jardins d’Annecy'],
		['le site de Atelier', 'le site d’Atelier'],
		['De Annecy à Lyon', 'D’Annecy à Lyon'],
		['Le atelier, la équipe', 'L’atelier, l’équipe'],
		['il faut que il vienne, si il peut', 'il faut qu’il vienne, s’il peut'],
		["l'équipe d'Atelier", 'l’équipe d’Atelier'],
		['de Lyon, le héros, de Yenne', 'de Lyon, le héros, de Yenne'],
		['Et puis...', 'Et puis…']
	])('elides and curls apostrophes: %s', (input, output) => {
		expect(typeset(input)).toBe(output);
	});

	it.each([
		'https://www.ovhcloud.com',
		'/api/img/hero?v=abc&w=800',
		'mailto:contact@atelier-numerique.fr',
		'Ouvert de 8:30 à 18:00',
		'Dupont &amp; fils',
		'tel:+33478000000',
		'node --max-old-space-size=512'
	])('leaves what is not prose alone: %s', (input) => {
		expect(typeset(input)).toBe(input);
	});

	it('is idempotent, and passes anything but a string through', () => {
		const once = typeset('« Combien ? » : 04 78 00 00 00, de Annecy...');
		expect(typeset(once)).toBe(once);
		expect(typeset(42)).toBe(42);
		expect(typeset(null)).toBeNull();
		expect(typeset(undefined)).toBeUndefined();
	});

	it('keeps the results of short strings, at most MEMO_ENTRIES of them, and never of long text', () => {
		const label = 'Besoin d’aide ? Appelez le 04 78 00 00 00';
		const first = typeset(label);
		expect(first).toBe('Besoin d’aide\u202F? Appelez le 04\u00A078\u00A000\u00A000\u00A000');
		expect(typeset(label)).toBe(first);

		const sizeBefore = memoSize();
		const long = `${'Une phrase de la leçon, lue par les membres. '.repeat(10)}Et la fin !`;
		expect(long.length).toBeGreaterThan(MEMO_MAX_LENGTH);
		expect(typeset(long).endsWith('la fin\u202F!')).toBe(true);
		expect(memoSize()).toBe(sizeBefore);

		for (let i = 0; i < MEMO_ENTRIES + 50; i++) typeset(`Chantier numéro ${i} : terminé`);
		expect(memoSize()).toBe(MEMO_ENTRIES);
		// The first label was dropped, oldest first; asked again, it is the same.
		expect(typeset(label)).toBe(first);
		expect(typeset('Chantier numéro 7 : terminé')).toBe('Chantier numéro 7\u202F: terminé');
	});

	it('lets every kept string go after MEMO_MAX_AGE_MS: a member’s name does not outlive a minute there', () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		typeset('Bonjour Camille Roux');
		expect(memoSize()).toBeGreaterThan(0);
		vi.setSystemTime(Date.now() + MEMO_MAX_AGE_MS);
		expect(typeset('Tableau de bord')).toBe('Tableau de bord');
		expect(memoSize()).toBe(1);
		// A clock set back (NTP, a VM resumed) does not keep strings longer than a minute either.
		typeset('Bonjour Zoé');
		vi.setSystemTime(Date.now() - 3_600_000);
		typeset('Mon profil');
		expect(memoSize()).toBe(1);
	});

	it('elides "de" before a name that comes from data', () => {
		expect(de('Annecy')).toBe('d’Annecy');
		expect(de('Villefranche-sur-Saône')).toBe('de Villefranche-sur-Saône');
	});
});
