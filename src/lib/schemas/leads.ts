/** The contact (audit request) and devis (masonry quote) forms, shared by the pages and the JSON API. */
import { z } from 'zod';
import { emailField } from './auth';
import { textField } from './text';

export const PROJECT_TYPES = [
	{ value: 'mur', label: 'Mur, muret ou clôture' },
	{ value: 'facade', label: 'Façade ou enduit' },
	{ value: 'terrasse', label: 'Terrasse, dallage ou escalier' },
	{ value: 'ouverture', label: 'Ouverture ou extension' },
	{ value: 'renovation', label: 'Rénovation de pierre' },
	{ value: 'autre', label: 'Autre projet' }
] as const;

/** What a visitor reads once a request is stored, whichever way it arrived (API or form action). */
export const LEAD_RECEIVED_MESSAGE =
	'Merci ! Votre demande est bien reçue : nous vous répondons sous 48 heures ouvrées.';

/** "mur" → "Mur, muret ou clôture"; an unknown value is shown as it is. */
export const projectTypeLabel = (value: string | null | undefined): string | null =>
	value ? (PROJECT_TYPES.find((t) => t.value === value)?.label ?? value) : null;

const name = textField({ error: 'Indiquez votre nom.' })
	.trim()
	.min(2, 'Indiquez votre nom.')
	.max(100, 'Nom trop long (100 caractères au plus).');
const phonePattern = /^\+?[0-9][0-9 ().-]{5,24}$/;
const optionalText = (max: number, label: string) =>
	textField().trim().max(max, `${label} trop long (${max} caractères au plus).`).optional();
const message = textField({ multiline: true, error: 'Décrivez votre demande.' })
	.trim()
	.min(10, 'Décrivez votre demande en quelques mots (10 caractères au moins).')
	.max(5000, 'Message trop long (5 000 caractères au plus).');
/** The honeypot: invisible to people, filled by bots. */
const website = textField().max(500).optional();
/** The time trap: a signed timestamp the page issued (absent for API clients). */
const formToken = textField().max(200).optional();

export const contactSchema = z.object({
	name,
	email: emailField,
	phone: textField()
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
	phone: textField({ error: 'Indiquez un numéro pour vous rappeler.' })
		.trim()
		.regex(phonePattern, 'Numéro de téléphone invalide.'),
	city: textField({ error: 'Indiquez la commune du chantier.' })
		.trim()
		.min(2, 'Indiquez la commune du chantier.')
		.max(100),
	projectType: z.enum(PROJECT_TYPES.map((t) => t.value) as [string, ...string[]], {
		error: 'Choisissez le type de projet.'
	}),
	message,
	website,
	formToken
});

export type ContactInput = z.infer<typeof contactSchema>;
export type DevisInput = z.infer<typeof devisSchema>;
