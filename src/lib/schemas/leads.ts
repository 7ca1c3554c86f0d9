/** The contact (audit request) and devis (masonry quote) forms, shared by the pages and the JSON API. */
import { z } from 'zod';
import { labelOf, optionsOf, valuesOf } from '$lib/options';
import { emailField } from './auth';
import { dropInvalid } from './query';
import { lineText, multilineText } from './text';

export const PROJECT_TYPES = optionsOf({
	mur: 'Mur, muret ou clôture',
	facade: 'Façade ou enduit',
	terrasse: 'Terrasse, dallage ou escalier',
	ouverture: 'Ouverture ou extension',
	renovation: 'Rénovation de pierre',
	autre: 'Autre projet'
});

/** "mur" → "Mur, muret ou clôture"; an unknown value is shown as it is. */
export const projectTypeLabel = (value: string | null | undefined): string | null =>
	value ? labelOf(PROJECT_TYPES, value) : null;

const name = lineText('Indiquez votre nom.')
	.trim()
	.min(2, 'Indiquez votre nom.')
	.max(100, 'Nom trop long (100 caractères au plus).');
const phonePattern = /^\+?[0-9][0-9 ().-]{5,24}$/;
const optionalText = (max: number, label: string) =>
	lineText().trim().max(max, `${label} trop long (${max} caractères au plus).`).optional();
const message = multilineText('Décrivez votre demande.')
	.trim()
	.min(10, 'Décrivez votre demande en quelques mots (10 caractères au moins).')
	.max(5000, 'Message trop long (5 000 caractères au plus).');
/** The honeypot: invisible to people, filled by bots. */
const website = lineText().max(500).optional();
/** The time trap: a signed timestamp the page issued (absent for API clients). */
const formToken = lineText().max(200).optional();

export const contactSchema = z.object({
	name,
	email: emailField,
	phone: lineText()
		.trim()
		.max(30)
		.refine((v) => v === '' || phonePattern.test(v), 'Numéro de téléphone invalide.')
		.optional(),
	company: optionalText(120, 'Nom d’entreprise'),
	message,
	website,
	formToken
});

export const devisSchema = z.object({
	name,
	email: emailField,
	phone: lineText('Indiquez un numéro pour vous rappeler.')
		.trim()
		.min(1, 'Indiquez un numéro pour vous rappeler.')
		.regex(phonePattern, 'Numéro de téléphone invalide.'),
	city: lineText('Indiquez la commune du chantier.')
		.trim()
		.min(2, 'Indiquez la commune du chantier.')
		.max(100),
	projectType: z.enum(valuesOf<string>(PROJECT_TYPES), {
		error: 'Choisissez le type de projet.'
	}),
	message,
	website,
	formToken
});

/**
 * CONTRACT §3 in showcase mode: `POST /api/contact` takes the contact body (`name`, `email`, `phone?`, `message`)
 * and sends the business a quote request. The quote form's own fields are optional there — the site's form still
 * asks for them — and checked when given.
 */
export const showcaseContactSchema = devisSchema.extend({
	phone: contactSchema.shape.phone,
	city: lineText().trim().max(100, 'Commune trop longue (100 caractères au plus).').optional(),
	projectType: devisSchema.shape.projectType.optional()
});

export type ContactInput = z.infer<typeof contactSchema>;
export type DevisInput = z.infer<typeof devisSchema>;
/** A quote request as the domain takes it: the form's (every field) or the showcase API's (fewer). */
export type QuoteInput = z.infer<typeof showcaseContactSchema>;

/** One lead named by an admin action's form. */
export const leadIdSchema = z.object({ id: z.uuid('Demande inconnue.') });

/**
 * A lead's place in the inbox's order, as its page links carry it: its time in UTC to the microsecond and its id
 * (`2026-03-01T08:00:00.000123Z_0b6c…`; leads/queries.ts `LeadCursor`).
 */
const LEAD_CURSOR =
	/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The inbox filters, as the query string spells them (?type=devis&spam=non&traitee=non&du=…&au=…). */
export const leadFiltersQuerySchema = z.object({
	type: dropInvalid(z.enum(['contact', 'devis'])),
	spam: dropInvalid(z.enum(['oui', 'non', 'tous'])),
	traitee: dropInvalid(z.enum(['oui', 'non'])),
	du: dropInvalid(z.iso.date()),
	au: dropInvalid(z.iso.date()),
	onglet: dropInvalid(z.enum(['a-traiter', 'traitees', 'spam', 'toutes'])),
	/** Only the leads whose notification failed and was never sent since (the dashboard's count links here). */
	notification: dropInvalid(z.enum(['echec'])),
	/** The inbox's pages, walked by keys: leads older (`avant`) or newer (`apres`) than a lead's cursor, or the oldest. */
	avant: dropInvalid(z.string().regex(LEAD_CURSOR)),
	apres: dropInvalid(z.string().regex(LEAD_CURSOR)),
	fin: dropInvalid(z.enum(['1']))
});
export type LeadFiltersQuery = z.infer<typeof leadFiltersQuerySchema>;
