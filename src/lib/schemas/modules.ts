/** Course modules (CONTRACT §3 "Bodies"): what admins send, by the API or the editor. Client-safe. */
import { z } from 'zod';
import { lineText, multilineText } from './text';

export const MODULE_CONTENT_MAX = 60_000;

const slug = lineText()
	.trim()
	.toLowerCase()
	.min(1, 'Indiquez l’adresse du module.')
	.max(80, 'Adresse trop longue (80 caractères au plus).')
	.regex(
		/^[a-z0-9]+(?:-[a-z0-9]+)*$/,
		'Lettres sans accent, chiffres et tirets seulement (ex. les-fondations).'
	);

const fields = {
	slug,
	title: lineText('Indiquez un titre.').trim().min(1, 'Indiquez un titre.').max(200, 'Titre trop long.'),
	summary: multilineText().trim().max(500, 'Résumé trop long (500 caractères au plus).'),
	content: multilineText().max(MODULE_CONTENT_MAX, 'Contenu trop long (60 000 caractères au plus).'),
	published: z.boolean({ error: 'Publié : vrai ou faux.' }),
	durationMinutes: z
		.number({ error: 'Indiquez une durée en minutes.' })
		.int('Durée en minutes entières.')
		.min(0, 'Durée positive.')
		.max(1000, 'Durée trop longue (1 000 minutes au plus).'),
	position: z.number({ error: 'Position : un nombre.' }).int().min(0).max(100_000)
};

/** POST: the slug is made from the title when absent, the position is last when absent. */
export const moduleCreateSchema = z.object({
	...fields,
	slug: fields.slug.optional(),
	summary: fields.summary.default(''),
	content: fields.content.default(''),
	published: fields.published.default(false),
	durationMinutes: fields.durationMinutes.default(0),
	position: fields.position.optional()
});

/** PUT: any subset. */
export const moduleUpdateSchema = z.object(fields).partial();

/** The editor's form: every field shown, the slug may be left empty to follow the title. */
export const moduleFormSchema = z.object({
	title: fields.title,
	slug: lineText().trim().toLowerCase().max(80).optional(),
	summary: fields.summary.default(''),
	content: fields.content.default(''),
	durationMinutes: fields.durationMinutes.default(0),
	published: fields.published.default(false)
});

export type ModuleCreate = z.infer<typeof moduleCreateSchema>;
export type ModuleUpdate = z.infer<typeof moduleUpdateSchema>;

/** One-field admin actions on the list. */
export const moduleIdSchema = z.object({ id: z.uuid('Module inconnu.') });
export const moduleMoveSchema = z.object({
	id: z.uuid('Module inconnu.'),
	direction: z.enum(['up', 'down'], { error: 'Direction inconnue.' })
});
/** Drag and drop: the whole new order. */
export const moduleOrderSchema = z.object({
	// "id,id,id" from the hidden field; each must be a uuid (which admits no control character).
	order: z.preprocess(
		(v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
		z.array(z.uuid('Module inconnu.'), { error: 'Ordre invalide.' }).min(1).max(1000)
	)
});
