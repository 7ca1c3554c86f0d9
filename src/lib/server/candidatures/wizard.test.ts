import { describe, expect, it } from 'vitest';
import { WIZARD_STEPS } from '$lib/schemas/candidature';
import {
	answersAfterSave,
	completeCandidature,
	fieldMessages,
	firstIncomplete,
	postedStep,
	RECAP,
	recapOf,
	stepAfterSave,
	stepIndexOf,
	stepToShow
} from './wizard';

const you = {
	firstName: 'Julien',
	lastName: 'Moreau',
	email: 'julien@exemple.fr',
	phone: '06 12 34 56 78',
	postalCode: '69003',
	city: 'Lyon'
};
const activity = {
	trade: 'macon',
	company: 'Moreau Maçonnerie',
	siret: '73282932000074',
	yearsExperience: 12,
	teamSize: 3
};
const goals = {
	goals: ['demandes'],
	presence: ['google'],
	hoursPerWeek: 4,
	motivation: 'Je veux que mes clients me trouvent en ligne, sans plateformes qui prennent une commission.'
};
const [vous, activite, objectifs, recapitulatif] = WIZARD_STEPS;

describe('which step opens', () => {
	it('knows the steps by slug, and nothing else', () => {
		expect(stepIndexOf('objectifs')).toBe(2);
		expect(stepIndexOf('inconnue')).toBe(-1);
		expect(stepIndexOf(null)).toBe(-1);
	});

	it('goes to the first unfinished step, the recap once every question is answered', () => {
		expect(firstIncomplete({})).toBe(0);
		expect(firstIncomplete({ ...you })).toBe(1);
		expect(firstIncomplete({ ...you, ...activity })).toBe(2);
		expect(firstIncomplete({ ...you, ...activity, ...goals })).toBe(RECAP);
		// An answer that no longer passes (a draft from an older form) sends back to its step.
		expect(firstIncomplete({ ...you, phone: '12', ...activity, ...goals })).toBe(0);
	});

	it('opens the step asked for, but never past the first unfinished one', () => {
		expect(stepToShow({ ...you }, 'vous')).toBe(0);
		expect(stepToShow({ ...you }, 'recapitulatif')).toBe(1);
		expect(stepToShow({ ...you, ...activity, ...goals }, 'activite')).toBe(1);
		expect(stepToShow({ ...you, ...activity }, null)).toBe(2);
		expect(stepToShow({}, 'nimporte')).toBe(0);
	});

	it('takes a posted form for the step its query names, the first by default', () => {
		expect(postedStep('objectifs')).toBe(objectifs);
		expect(postedStep(null)).toBe(vous);
		expect(postedStep('../admin')).toBe(vous);
	});
});

describe('a save', () => {
	const token = () => 'token-1';

	it('keeps only the step’s own fields, and issues the time-trap token once', () => {
		const saved = answersAfterSave(vous!, {}, { ...you, isAdmin: true, trade: 'macon' }, token);
		expect(saved).toEqual({ ...you, formToken: 'token-1' });
		const again = answersAfterSave(activite!, saved, activity, () => 'token-2');
		expect(again).toEqual({ ...you, ...activity, formToken: 'token-1' });
	});

	it('replaces a step’s earlier answers and leaves the other steps’ alone', () => {
		const before = { ...you, ...activity, formToken: 't' };
		const after = answersAfterSave(vous!, before, { ...you, city: 'Villeurbanne' }, token);
		expect(after).toEqual({ ...you, city: 'Villeurbanne', ...activity, formToken: 't' });
	});

	it('leads to the next step, or back one, never before the first or past the recap', () => {
		expect(stepAfterSave(vous!, 'next')).toBe(activite);
		expect(stepAfterSave(objectifs!, 'next')).toBe(recapitulatif);
		expect(stepAfterSave(activite!, 'back')).toBe(vous);
		expect(stepAfterSave(vous!, 'back')).toBe(vous);
		expect(stepAfterSave(recapitulatif!, 'next')).toBe(recapitulatif);
	});
});

describe('the recap and sending', () => {
	const all = { ...you, ...activity, ...goals, formToken: 't' };

	it('shows every answer once the steps are done, nothing before', () => {
		expect(recapOf(all)).toMatchObject({
			firstName: 'Julien',
			company: 'Moreau Maçonnerie',
			hoursPerWeek: 4
		});
		expect(recapOf({ ...you })).toBeNull();
	});

	it('makes the whole candidature from the draft and the recap’s consent and honeypot', () => {
		const sent = completeCandidature(all, { consent: true, website: '' });
		expect(sent).toMatchObject({ input: { email: 'julien@exemple.fr', consent: true, formToken: 't' } });
	});

	it('sends back to the unfinished step, and refuses without consent', () => {
		expect(completeCandidature({ ...you, ...activity }, { consent: true })).toEqual({
			unfinished: objectifs
		});
		expect(completeCandidature(all, { consent: false })).toEqual({ unfinished: recapitulatif });
	});
});

describe('fieldMessages', () => {
	it('gives the browser the schema’s own words for an empty and a malformed field', () => {
		const you = fieldMessages(WIZARD_STEPS[0]);
		expect(you.firstName).toEqual({ missing: 'Indiquez votre prénom.', format: undefined });
		expect(you.phone).toEqual({
			missing: 'Indiquez votre numéro de téléphone.',
			format: 'Indiquez un numéro français (ex. 06 12 34 56 78).'
		});
		expect(you.postalCode?.format).toBe('Le code postal a 5 chiffres.');
		const goals = fieldMessages(WIZARD_STEPS[2]);
		expect(goals.hoursPerWeek?.format).toBe('Entre 1 et 40 heures.');
		expect(goals.goals?.missing).toBe('Choisissez au moins un objectif.');
		expect(fieldMessages(WIZARD_STEPS[3]).consent?.missing).toBe(
			'Acceptez les CGV et la politique de confidentialité pour envoyer.'
		);
	});
});
