/** The content API's bodies (issue « Content, part 1 »): what the editor and scripts send. Client-safe. */
import { z } from 'zod';

const version = z
	.number({ error: 'version : le numéro de version de la page, reçu avec elle.' })
	.int('version : un entier.')
	.min(1, 'version : un entier positif.');

/** PUT /api/admin/pages/{id}: the draft, saved if `version` is still the entry's. */
export const draftSaveSchema = z.object({
	version,
	draft: z.record(z.string(), z.unknown(), { error: 'draft : un objet de champs.' })
});

/** POST …/publish and …/discard. */
export const versionSchema = z.object({ version });

/**
 * POST …/publish: now, or `at` a later time (ISO 8601 with its offset, as the editor sends « Publier le … à … »
 * read in Europe/Paris).
 */
export const publishSchema = z.object({
	version,
	at: z.iso
		.datetime({
			offset: true,
			error: 'at : une date et une heure ISO 8601 avec leur fuseau (2026-12-24T09:00:00+01:00).'
		})
		.optional()
});

/** POST …/restore. */
export const restoreSchema = z.object({
	version,
	revision: z.number({ error: 'revision : le numéro d’une version publiée.' }).int().min(1)
});

/** POST /api/admin/pages: a new article, as a draft. The fields' own rules are checked when it is published. */
export const articleCreateSchema = z.object({
	kind: z.literal('article', { error: 'kind : seuls les articles se créent (« article »).' }),
	slug: z.string({ error: 'slug : l’adresse de l’article.' }).max(80, 'slug : 80 caractères au plus.'),
	title: z.string({ error: 'title : un texte.' }).max(200),
	description: z.string({ error: 'description : un texte.' }).max(400),
	body: z.string({ error: 'body : un texte.' }).max(60_000),
	cover: z
		.object({ value: z.string().max(300), alt: z.string().max(300) })
		.nullable()
		.optional()
});
export type ArticleCreateInput = z.output<typeof articleCreateSchema>;

/** « Nouvel article » (/admin/pages): a title and an address; the rest is written in the editor. */
export const articleStartSchema = z.object({
	title: z
		.string({ error: 'Titre : à remplir.' })
		.trim()
		.min(1, 'Titre : à remplir.')
		.max(70, 'Titre : 70 caractères au plus.'),
	slug: z
		.string({ error: 'Adresse : à remplir.' })
		.trim()
		.min(1, 'Adresse : à remplir.')
		.max(80, 'Adresse : 80 caractères au plus.')
});
