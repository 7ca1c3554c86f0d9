/**
 * The candidature (CONTRACT §3 "Bodies of the training routes"): one schema per wizard step, checked in the
 * browser and again on the server, and the whole, which the final submission and `POST /api/candidature` use.
 * Client-safe.
 */
import { z } from 'zod';
import { optionsOf, valuesOf } from '$lib/options';
import { emailField } from './auth';
import { dropInvalid } from './query';
import { lineText, multilineText } from './text';

export const TRADES = optionsOf({
	macon: 'Maçon',
	paysagiste: 'Paysagiste',
	plombier: 'Plombier',
	electricien: 'Électricien',
	menuisier: 'Menuisier',
	couvreur: 'Couvreur',
	peintre: 'Peintre',
	autre: 'Autre métier'
});

export const GOALS = optionsOf({
	demandes: 'Recevoir plus de demandes de clients',
	image: 'Donner une image plus professionnelle',
	prix: 'Mieux valoriser mes prix',
	recrutement: 'Recruter plus facilement',
	autonomie: 'Gérer ma présence en ligne moi-même'
});

export const PRESENCE = optionsOf({
	google: 'Une fiche Google (établissement)',
	reseaux: 'Des réseaux sociaux',
	site: 'Un site internet',
	aucune: 'Rien pour l’instant'
});

/** "06 12 34 56 78", "+33 6 12 34 56 78", "0033612345678" → "+33612345678"; null when not a French number. */
export function normalizeFrenchPhone(input: string): string | null {
	const digits = input.replace(/[\s.\-()]/g, '');
	const national = /^(?:\+33|0033)([1-9]\d{8})$/.exec(digits)?.[1] ?? /^0([1-9]\d{8})$/.exec(digits)?.[1];
	return national ? `+33${national}` : null;
}

/** "+33612345678" → "06 12 34 56 78", for people. */
export const formatFrenchPhone = (stored: string): string =>
	stored.startsWith('+33') ? `0${stored.slice(3)}`.replace(/(\d{2})(?=\d)/g, '$1 ') : stored;

/** The Luhn checksum that every SIRET satisfies (La Poste's historical SIRETs excepted, which we do not expect). */
export function isValidSiret(siret: string): boolean {
	if (!/^\d{14}$/.test(siret)) return false;
	let sum = 0;
	for (let i = 0; i < 14; i++) {
		let digit = Number(siret[13 - i]);
		if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
		sum += digit;
	}
	return sum % 10 === 0;
}

const required = (message: string) => lineText(message).trim().min(1, message);
const integer = (message: string, min: number, max: number, range: string) =>
	z.number({ error: message }).int(message).min(min, range).max(max, range);

export const stepYouSchema = z.object({
	firstName: required('Indiquez votre prénom.').max(80, 'Prénom trop long.'),
	lastName: required('Indiquez votre nom.').max(80, 'Nom trop long.'),
	email: emailField,
	phone: required('Indiquez votre numéro de téléphone.')
		.max(30, 'Numéro de téléphone invalide.')
		.refine((v) => normalizeFrenchPhone(v) !== null, 'Indiquez un numéro français (ex. 06 12 34 56 78).'),
	postalCode: required('Indiquez votre code postal.').regex(/^\d{5}$/, 'Le code postal a 5 chiffres.'),
	city: required('Indiquez votre ville.').max(100, 'Nom de ville trop long.')
});

const activityFields = z.object({
	trade: z.enum(valuesOf(TRADES), { error: 'Choisissez votre métier.' }),
	tradeOther: lineText().trim().max(80, 'Métier trop long (80 caractères au plus).').optional(),
	company: required('Indiquez le nom de votre entreprise.').max(120, 'Nom d’entreprise trop long.'),
	siret: required('Indiquez votre numéro SIRET.')
		.transform((v) => v.replace(/\s/g, ''))
		.refine((v) => /^\d{14}$/.test(v), 'Le SIRET a 14 chiffres.')
		.refine(isValidSiret, 'Ce numéro SIRET n’existe pas (vérifiez les chiffres).'),
	yearsExperience: integer('Indiquez vos années d’expérience.', 0, 70, 'Entre 0 et 70 ans.'),
	teamSize: integer('Indiquez la taille de votre équipe.', 1, 10_000, 'Au moins 1 personne (vous).'),
	currentSite: lineText()
		.trim()
		.max(300, 'Adresse trop longue.')
		.refine((v) => v === '' || /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v), 'Adresse invalide (https://…).')
		.optional()
});
const tradeOtherRule = (value: { trade?: string; tradeOther?: string }, ctx: z.RefinementCtx) => {
	if (value.trade === 'autre' && !value.tradeOther?.trim())
		ctx.addIssue({ code: 'custom', path: ['tradeOther'], message: 'Précisez votre métier.' });
};
export const stepActivitySchema = activityFields.superRefine(tradeOtherRule);

const goalsFields = z.object({
	goals: z
		.array(z.enum(valuesOf(GOALS)), { error: 'Choisissez au moins un objectif.' })
		.min(1, 'Choisissez au moins un objectif.'),
	presence: z
		.array(z.enum(valuesOf(PRESENCE)), { error: 'Dites-nous où l’on vous trouve aujourd’hui.' })
		.min(1, 'Dites-nous où l’on vous trouve aujourd’hui (ou « Rien pour l’instant »).'),
	hoursPerWeek: integer('Indiquez vos heures disponibles par semaine.', 1, 40, 'Entre 1 et 40 heures.'),
	motivation: multilineText('Dites-nous ce qui vous motive.')
		.trim()
		.min(50, 'Quelques phrases, s’il vous plaît (50 caractères au moins).')
		.max(2000, 'Texte trop long (2 000 caractères au plus).')
});
export const stepGoalsSchema = goalsFields;

/** The recap step: consent (required), and the two spam defences shared with the lead forms. */
const finalFields = z.object({
	// A boolean that must be true (not z.literal(true), whose default would be a box ticked in advance).
	consent: z
		.boolean({ error: 'Acceptez les CGV et la politique de confidentialité pour envoyer.' })
		.refine((v) => v, 'Acceptez les CGV et la politique de confidentialité pour envoyer.'),
	website: lineText().max(500).optional(),
	formToken: lineText().max(200).optional()
});
export const stepRecapSchema = finalFields;

export const candidatureSchema = stepYouSchema
	.extend(activityFields.shape)
	.extend(goalsFields.shape)
	.extend(finalFields.shape)
	.superRefine(tradeOtherRule);

export type CandidatureInput = z.infer<typeof candidatureSchema>;

/** The wizard's steps, in order: their title and schema. */
export const WIZARD_STEPS = [
	{ slug: 'vous', title: 'Vous', schema: stepYouSchema },
	{ slug: 'activite', title: 'Votre activité', schema: stepActivitySchema },
	{ slug: 'objectifs', title: 'Vos objectifs', schema: stepGoalsSchema },
	{ slug: 'recapitulatif', title: 'Récapitulatif', schema: stepRecapSchema }
] as const;

export const CANDIDATURE_STATUSES = ['pending', 'approved', 'rejected', 'enrolled'] as const;
export type CandidatureStatus = (typeof CANDIDATURE_STATUSES)[number];
export const STATUS_LABELS: Record<CandidatureStatus, string> = {
	pending: 'En attente',
	approved: 'Approuvées',
	rejected: 'Refusées',
	enrolled: 'Inscrites'
};

/** How the admin's status tag reads (admin.css `.tag.good`, `.tag.bad`; plain while it waits). */
export const STATUS_TONES: Record<CandidatureStatus, '' | 'good' | 'bad'> = {
	pending: '',
	approved: 'good',
	enrolled: 'good',
	rejected: 'bad'
};

/** Admin actions on one candidature. */
export const candidatureIdSchema = z.object({ id: z.uuid('Candidature inconnue.') });
export const rejectionSchema = z.object({
	reason: multilineText().trim().max(1000, 'Motif trop long (1 000 caractères au plus).').optional()
});

/** The admin list's query string (?statut=pending&metier=macon&q=…&du=…&au=…&page=2); invalid values are dropped. */
export const candidatureFiltersQuerySchema = z.object({
	id: dropInvalid(z.uuid()),
	statut: dropInvalid(z.enum(CANDIDATURE_STATUSES)),
	metier: dropInvalid(z.enum(valuesOf(TRADES))),
	q: dropInvalid(lineText().trim().max(100)),
	du: dropInvalid(z.iso.date()),
	au: dropInvalid(z.iso.date()),
	page: dropInvalid(z.coerce.number().int().min(1).max(10_000))
});
