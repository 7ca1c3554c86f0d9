/**
 * Showcase mode (SITE_MODE=showcase): what its pages load. Every page's content comes from the content index;
 * this adds what the page needs around it — canonical URL, breadcrumb trail and JSON-LD. Routes call these and
 * nothing else.
 */
import { largestJpeg } from '$lib/showcase/photos';
import { business } from '$content/showcase/business';
import { config } from '../config';
import { NotFoundError } from '../errors';
import { content, type Collection, type Entry } from './content';
import * as ld from './structured-data';

export { content };
export type { Entry };

export const isActive = () => config.siteMode === 'showcase';

const HOME: ld.Crumb = { name: 'Accueil', path: '/' };
const LISTS: Record<Exclude<Collection, 'pages'>, ld.Crumb> = {
	services: { name: 'Services', path: '/services' },
	secteurs: { name: 'Secteurs', path: '/secteurs' },
	blog: { name: 'Conseils', path: '/blog' }
};

export interface ShowcasePage<C extends Collection = Collection> {
	entry: Entry<C>;
	canonical: string;
	/** From home to this page; empty on home. */
	breadcrumbs: ld.Crumb[];
	jsonLd: ld.JsonLd;
}

function around<C extends Collection>(
	entry: Entry<C>,
	trail: ld.Crumb[],
	nodes: ld.JsonLd[]
): ShowcasePage<C> {
	const origin = config.origin;
	const crumbs = entry.path === '/' ? [] : [HOME, ...trail, { name: shortName(entry), path: entry.path }];
	return {
		entry,
		canonical: new URL(entry.path, origin).href,
		breadcrumbs: crumbs,
		jsonLd: ld.graph([...nodes, ...(crumbs.length ? [ld.breadcrumbs(origin, crumbs)] : [])])
	};
}

function shortName(entry: Entry): string {
	if (entry.collection === 'services') return (entry as Entry<'services'>).meta.name;
	if (entry.collection === 'secteurs') return (entry as Entry<'secteurs'>).meta.town;
	if (entry.collection === 'pages') return (entry as Entry<'pages'>).meta.heading;
	return entry.meta.title;
}

/** A photo's largest JPEG, absolute on ORIGIN (for JSON-LD, which crawlers read without the page). */
const photoUrl = (file: string | undefined) =>
	file ? new URL(largestJpeg(file), config.origin).href : undefined;

/** A single page (home, lists, partners, réalisations, contact, legal pages). */
export function singlePage(path: string): ShowcasePage<'pages'> {
	const entry = content.page(path);
	const withBusiness = path === '/' || path === '/contact';
	const image = photoUrl(content.page('/').meta.photo?.file);
	return around(
		entry,
		[],
		withBusiness ? [ld.localBusiness(config.origin, business, content.secteurs, image)] : []
	);
}

/** A page of a collection by its slug; NotFoundError when there is none (the route shows the 404 page). */
export function collectionPage<C extends Exclude<Collection, 'pages'>>(
	collection: C,
	slug: string
): ShowcasePage<C> {
	const entry = content.get(collection, slug);
	if (!entry) throw new NotFoundError('Page introuvable');
	const origin = config.origin;
	const node =
		collection === 'services'
			? ld.service(origin, business, entry as Entry<'services'>)
			: collection === 'secteurs'
				? ld.areaServed(origin, business, entry as Entry<'secteurs'>)
				: ld.article(
						origin,
						business,
						entry as Entry<'blog'>,
						photoUrl((entry as Entry<'blog'>).meta.photo.file)
					);
	return around(entry, [LISTS[collection]], [node]);
}

/** The cards of a list: what each entry shows outside its own page. */
export const cards = {
	services: () =>
		content.services.map((s) => ({
			path: s.path,
			name: s.meta.name,
			summary: s.meta.summary,
			photo: s.meta.photo
		})),
	secteurs: () =>
		content.secteurs.map((s) => ({
			path: s.path,
			town: s.meta.town,
			postalCode: s.meta.postalCode,
			distanceKm: s.meta.distanceKm,
			summary: s.meta.summary
		})),
	articles: () =>
		content.articles.map((a) => ({
			path: a.path,
			title: a.meta.title,
			summary: a.meta.summary,
			published: a.meta.published,
			readingMinutes: a.readingMinutes,
			author: a.meta.author,
			photo: a.meta.photo
		}))
};

export type ServiceCard = ReturnType<typeof cards.services>[number];
export type AreaCard = ReturnType<typeof cards.secteurs>[number];
export type ArticleCard = ReturnType<typeof cards.articles>[number];

/** Every page of the site with its last change, for the sitemap and the page cache. */
export const allPages = () => content.all();

/**
 * The page cache's rule in showcase mode: every content page is the same bytes for everyone until the next
 * deploy, so it is kept an hour — except contact, whose form carries a fresh single-use token per visitor.
 */
const RENDERED_PER_VISIT = new Set(['/contact']);
export const CACHE_MS = 60 * 60 * 1000;
export const freshMs = (path: string): number =>
	content.byPath(path) && !RENDERED_PER_VISIT.has(path) ? CACHE_MS : 0;

/** Home: its own text, then a taste of everything else. */
export function home() {
	const gallery = content.page('/realisations').meta.gallery ?? [];
	return {
		page: singlePage('/'),
		services: cards.services(),
		areas: cards.secteurs(),
		articles: cards.articles().slice(0, 3),
		gallery: gallery.slice(0, 6)
	};
}
