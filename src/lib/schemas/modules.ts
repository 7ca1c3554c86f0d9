/** Course modules (CONTRACT §3 "Bodies"): what admins send, by the API or the editor. Client-safe. */
import { z } from 'zod';
import { QUIZ_PASS_PERCENT_DEFAULT, quizSchema } from './quiz';
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

/**
 * A course file, as the upload's answer gave it: `storage:course/<uuid>.<ext>`. That it exists and is of the field's
 * kind is the server’s check (courses/modules.ts), against what it read of the file.
 */
export const COURSE_FILE_VALUE =
	/^storage:course\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:mp4|webm|vtt|webp|pdf)$/;
const courseFile = (what: string) =>
	z
		.string({ error: `${what} : une valeur storage:course/… ou null.` })
		.regex(COURSE_FILE_VALUE, `${what} : une valeur storage:course/… reçue d’un envoi, ou null.`);

export const ATTACHMENTS_MAX = 20;
const attachment = z.object(
	{
		value: courseFile('Pièce jointe'),
		title: lineText('Donnez un titre à la pièce jointe.')
			.trim()
			.min(1, 'Donnez un titre à la pièce jointe.')
			.max(120, 'Titre de pièce jointe trop long (120 caractères au plus).')
	},
	{ error: 'Pièce jointe : { value, title }.' }
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
	position: z.number({ error: 'Position : un nombre.' }).int().min(0).max(100_000),
	video: courseFile('Vidéo').nullable(),
	captions: courseFile('Sous-titres').nullable(),
	poster: courseFile('Affiche').nullable(),
	attachments: z
		.array(attachment, { error: 'Pièces jointes : une liste de { value, title }.' })
		.max(ATTACHMENTS_MAX, `${ATTACHMENTS_MAX} pièces jointes au plus.`)
		.refine(
			(list) => new Set(list.map((a) => a.value)).size === list.length,
			'Une pièce jointe figure deux fois.'
		),
	quiz: quizSchema.nullable()
};

/** POST: the slug is made from the title when absent, the position is last when absent. */
export const moduleCreateSchema = z.object({
	...fields,
	slug: fields.slug.optional(),
	summary: fields.summary.default(''),
	content: fields.content.default(''),
	published: fields.published.default(false),
	durationMinutes: fields.durationMinutes.default(0),
	position: fields.position.optional(),
	video: fields.video.default(null),
	captions: fields.captions.default(null),
	poster: fields.poster.default(null),
	attachments: fields.attachments.default([]),
	quiz: fields.quiz.default(null)
});

/** PUT: any subset. */
export const moduleUpdateSchema = z.object(fields).partial();

/** A hidden field of the editor: '' is no file; a value is checked as the API's (`moduleFilesFromForm`). */
const formFile = () => z.string().max(200).default('');

/** The editor's form: every field shown, the slug may be left empty to follow the title. */
export const moduleFormSchema = z.object({
	title: fields.title,
	slug: lineText().trim().toLowerCase().max(80).optional(),
	summary: fields.summary.default(''),
	content: fields.content.default(''),
	durationMinutes: fields.durationMinutes.default(0),
	published: fields.published.default(false),
	video: formFile(),
	captions: formFile(),
	poster: formFile(),
	/** The list as JSON text, kept by the editor's script in a hidden field (read with `moduleAttachmentsSchema`). */
	attachments: z.string().max(20_000).default('[]'),
	/** The quiz as the editor's text (schemas/quiz.ts `quizFromText`); empty: no quiz. */
	quiz: multilineText().max(60_000, 'Quiz trop long.').default(''),
	quizPassPercent: z
		.number({ error: 'Seuil de réussite : un pourcentage.' })
		.int('Seuil de réussite : un pourcentage entier.')
		.min(1, 'Seuil de réussite : entre 1 et 100 %.')
		.max(100, 'Seuil de réussite : entre 1 et 100 %.')
		.default(QUIZ_PASS_PERCENT_DEFAULT)
});

/** The editor's file fields, read as the API's: '' is none, the attachments' JSON text is their list. */
export const moduleFilesFromForm = z.object({
	video: z.preprocess((v) => v || null, fields.video),
	captions: z.preprocess((v) => v || null, fields.captions),
	poster: z.preprocess((v) => v || null, fields.poster),
	attachments: z.preprocess((v) => {
		if (typeof v !== 'string' || v.trim() === '') return [];
		try {
			return JSON.parse(v);
		} catch {
			return null;
		}
	}, fields.attachments)
});

/** What a creation may be given (fields left out take their defaults). */
/** A course file as the module editor shows it (the server's course_files row, and where to preview it). */
export interface CourseFileView {
	value: string;
	name: string;
	contentType: string;
	size: number;
	durationSeconds: number | null;
	indexAtEnd: boolean;
	url: string;
}

export type ModuleCreate = z.input<typeof moduleCreateSchema>;
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

/** `/admin/cours` › signature: the file is the body (multipart); nothing else is posted. */
export const signatureUploadSchema = z.object({});

/** `/admin/attestations`: which one, and why it no longer stands (the public page says it). */
export const attestationRevokeSchema = z.object({
	id: z.uuid('Attestation inconnue.'),
	reason: lineText('Indiquez le motif de la révocation.')
		.trim()
		.min(3, 'Indiquez le motif de la révocation.')
		.max(300, 'Motif trop long (300 caractères au plus).')
});
