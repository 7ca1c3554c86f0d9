/**
 * The content index of showcase mode: every page of the masonry business's site comes from a Markdown file with
 * front matter under src/content/showcase/ — never from a page component. Read once at start-up (bundled by
 * Vite, so the files ship inside the build), checked against the schemas below (a bad file fails the build's
 * tests, not a visitor), with `{{business.…}}` placeholders filled from the company file (business.ts).
 *
 * Collections: `services`, `secteurs` (local areas), `blog` (articles); the single pages (home, lists, partners,
 * réalisations, contact, legal pages) live in `pages/` and name their own path. `all()` is what the sitemap, the
 * page cache and the crawler test walk.
 */
import { z } from 'zod';
import { business } from '$content/showcase/business';
import { parseContentFile, type ParsedFile } from '../content';
import { valuesOf } from '$lib/options';
import { WORK_TYPES } from '$lib/showcase/work-types';

const files = import.meta.glob('/src/content/showcase/**/*.md', {
	eager: true,
	query: '?raw',
	import: 'default'
}) as Record<string, string>;

const isoDate = z.iso.date();
const photoFile = z.string().regex(/^[a-z0-9-]+\.jpg$/, 'a file of src/content/showcase/photos');
const photo = z.object({ file: photoFile, alt: z.string().min(10) });
const faq = z.array(z.object({ question: z.string(), answer: z.string() })).default([]);
const common = {
	title: z.string().min(5).max(70),
	description: z.string().min(50).max(170),
	updated: isoDate
};

const schemas = {
	services: z.object({
		...common,
		name: z.string(),
		order: z.number().int(),
		summary: z.string(),
		photo,
		highlights: z.array(z.string()).min(3),
		faq
	}),
	secteurs: z.object({
		...common,
		town: z.string(),
		postalCode: z.string().regex(/^\d{5}$/),
		distanceKm: z.number().nonnegative(),
		geo: z.object({ latitude: z.number(), longitude: z.number() }),
		summary: z.string(),
		photo,
		nearby: z.array(z.string()).default([])
	}),
	blog: z.object({
		...common,
		published: isoDate,
		author: z.string(),
		summary: z.string(),
		photo
	}),
	pages: z.object({
		...common,
		path: z.string().regex(/^\/[a-z0-9/-]*$/),
		heading: z.string(),
		lead: z.string().optional(),
		photo: photo.optional(),
		/** Kept out of the sitemap. */
		indexable: z.boolean().default(true),
		/** Réalisations: the gallery, filterable by `type`. */
		gallery: z
			.array(
				z.object({
					photo: photoFile,
					alt: z.string().min(10),
					title: z.string(),
					type: z.enum(valuesOf(WORK_TYPES)),
					town: z.string(),
					year: z.number().int()
				})
			)
			.optional(),
		partners: z
			.array(z.object({ name: z.string(), trade: z.string(), town: z.string(), text: z.string() }))
			.optional()
	})
};

export type Collection = keyof typeof schemas;
export type Meta<C extends Collection> = z.infer<(typeof schemas)[C]>;
export type Photo = z.infer<typeof photo>;

export interface Entry<C extends Collection = Collection> extends ParsedFile<Meta<C>> {
	collection: C;
	path: string;
}

export function parseFile<C extends Collection>(collection: C, file: string, raw: string): Entry<C> {
	const parsed = parseContentFile(file, raw, schemas[collection], { business });
	const meta = parsed.meta as Meta<C>;
	const path =
		collection === 'pages'
			? (meta as Meta<'pages'>).path
			: `/${collection === 'blog' ? 'blog' : collection}/${parsed.slug}`;
	return { ...parsed, collection, path, meta };
}

export function buildIndex(sources: Record<string, string>) {
	const entries: Entry[] = Object.entries(sources).map(([file, raw]) => {
		const collection = file.split('/').at(-2) as Collection;
		if (!(collection in schemas)) throw new Error(`${file}: not in a known collection`);
		return parseFile(collection, file, raw);
	});
	const byPath = new Map<string, Entry>();
	for (const entry of entries) {
		if (byPath.has(entry.path)) throw new Error(`two content files for ${entry.path}`);
		byPath.set(entry.path, entry);
	}
	const of = <C extends Collection>(collection: C) =>
		entries.filter((e): e is Entry<C> => e.collection === collection);
	const services = of('services').sort((a, b) => a.meta.order - b.meta.order);
	const secteurs = of('secteurs').sort((a, b) => a.meta.distanceKm - b.meta.distanceKm);
	const articles = of('blog').sort((a, b) => b.meta.published.localeCompare(a.meta.published));

	return {
		services,
		secteurs,
		articles,
		/** The entry of a collection by its slug; undefined when there is none (the route answers 404). */
		get<C extends Collection>(collection: C, slug: string): Entry<C> | undefined {
			return of(collection).find((e) => e.slug === slug);
		},
		/** A single page by its path; a missing one is a programming error. */
		page(path: string): Entry<'pages'> {
			const entry = byPath.get(path);
			if (!entry || entry.collection !== 'pages') throw new Error(`no content page for ${path}`);
			return entry as Entry<'pages'>;
		},
		byPath: (path: string): Entry | undefined => byPath.get(path),
		/** Every page of the site, for the sitemap and the page cache: the path and when its content last changed. */
		all(): { path: string; lastmod: string; indexable: boolean }[] {
			return entries
				.map((e) => ({
					path: e.path,
					lastmod: e.meta.updated,
					indexable: e.collection !== 'pages' || (e.meta as Meta<'pages'>).indexable
				}))
				.sort((a, b) => (a.path === '/' ? -1 : b.path === '/' ? 1 : a.path.localeCompare(b.path)));
		}
	};
}

export type ContentIndex = ReturnType<typeof buildIndex>;

export const content: ContentIndex = buildIndex(files);
