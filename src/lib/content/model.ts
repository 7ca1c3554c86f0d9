/**
 * The content model (issue « Content, part 1 »): which entries the site has and what fields each holds, for the
 * server (checks at publish, the seed of revision 1) and the editor (one form drawn from these specs) alike.
 * Client-safe and dependency-free. A page's words live in its entry's fields, never in a component: a new
 * editable text is a field here, its seed in src/content/agency/seed.ts, and its place in the page's template.
 *
 * Fields are structured — lines, paragraphs, lists of items — never HTML. `markdown` fields go through the one
 * Markdown renderer ($lib/markdown: raw HTML off, safe links). `{{company.…}}` in any text reads the company
 * file's live revision when the page is rendered.
 */

export type FieldSpec =
	/** One line of plain text; `phone`: a telephone number, its international form derived (content/phone.ts). */
	| {
			key: string;
			label: string;
			kind: 'line';
			min?: number;
			max: number;
			optional?: true;
			hint?: string;
			phone?: true;
	  }
	/** A paragraph of plain text (no Markdown). */
	| { key: string; label: string; kind: 'text'; min?: number; max: number; optional?: true; hint?: string }
	/** Markdown, rendered with raw HTML off. */
	| { key: string; label: string; kind: 'markdown'; max: number; optional?: true; hint?: string }
	/** A yes/no. */
	| { key: string; label: string; kind: 'flag'; hint?: string }
	/** A list of lines (a demo's towns). */
	| { key: string; label: string; kind: 'lines'; itemMax: number; min?: number; max: number; hint?: string }
	/** A list of items, each the same fields (services, testimonials, questions). */
	| {
			key: string;
			label: string;
			kind: 'list';
			item: string;
			fields: readonly FieldSpec[];
			min?: number;
			max: number;
			hint?: string;
	  }
	/** Fields grouped under one key (the company's address). */
	| { key: string; label: string; kind: 'group'; fields: readonly FieldSpec[] }
	/** An article's cover: a stored photo (`storage:` value) and its alternative text. */
	| { key: string; label: string; kind: 'cover' }
	/** An article's address: lower case letters, digits and hyphens. */
	| { key: string; label: string; kind: 'slug' };

export type EntryKind = 'page' | 'article' | 'company';
export type Fields = Record<string, unknown>;

export interface EntryModel {
	kind: EntryKind;
	/** French, for the admin's list. */
	label: string;
	fields: readonly FieldSpec[];
}

/**
 * A spec as written, its key and kind kept as literals: the pages' types are read from the specs (`FieldsOf`), so
 * a field renamed here is a type error wherever a page still reads the old name.
 */
const spec = <const S extends FieldSpec>(field: S): S => field;

/** An article's cover as its field holds it. */
export interface CoverValue {
	value: string;
	alt: string;
	/** The photo's own width (the widths `srcset` offers are below it). */
	width?: number;
}

/** The value a field of this spec holds. */
export type FieldValue<S> = S extends { kind: 'line' | 'text' | 'markdown' | 'slug' }
	? string
	: S extends { kind: 'flag' }
		? boolean
		: S extends { kind: 'lines' }
			? string[]
			: S extends { kind: 'list'; fields: infer F extends readonly FieldSpec[] }
				? FieldsOf<F>[]
				: S extends { kind: 'group'; fields: infer F extends readonly FieldSpec[] }
					? FieldsOf<F>
					: S extends { kind: 'cover' }
						? CoverValue | null
						: never;

/** The fields these specs make, each key with its value's type. */
export type FieldsOf<F extends readonly FieldSpec[]> = { [S in F[number] as S['key']]: FieldValue<S> };

const TITLE = { key: 'title', label: 'Titre', kind: 'line', min: 5, max: 70 } as const satisfies FieldSpec;
const DESCRIPTION = {
	key: 'description',
	label: 'Description',
	kind: 'text',
	min: 50,
	max: 170,
	hint: 'Ce que montrent les moteurs de recherche sous le titre (50 à 170 caractères).'
} as const satisfies FieldSpec;
const body = (label = 'Texte') => spec({ key: 'body', label, kind: 'markdown', max: 60_000 });
const optionalBody = (label: string) =>
	spec({ key: 'body', label, kind: 'markdown', max: 60_000, optional: true });
const titledTexts = <const K extends string>(key: K, label: string, item: string, min: number, max: number) =>
	spec({
		key,
		label,
		kind: 'list',
		item,
		min,
		max,
		fields: [
			spec({ key: 'title', label: 'Titre', kind: 'line', min: 3, max: 80 }),
			spec({ key: 'text', label: 'Texte', kind: 'text', min: 10, max: 400 })
		]
	});
const TESTIMONIAL_FIELDS = [
	spec({ key: 'quote', label: 'Citation', kind: 'text', min: 10, max: 400 }),
	spec({ key: 'name', label: 'Nom', kind: 'line', min: 2, max: 80 }),
	spec({ key: 'role', label: 'Métier ou commune', kind: 'line', min: 2, max: 80 })
] as const;
const testimonials = <const F extends readonly FieldSpec[]>(fields: F) =>
	spec({
		key: 'testimonials',
		label: 'Témoignages',
		kind: 'list',
		item: 'Témoignage',
		min: 0,
		max: 8,
		hint: 'Les mots de vrais clients, avec leur accord.',
		fields
	});
const DEMO = [
	TITLE,
	DESCRIPTION,
	{ key: 'name', label: 'Nom de l’entreprise', kind: 'line', min: 2, max: 80 },
	{ key: 'trade', label: 'Métier', kind: 'line', min: 2, max: 60 },
	{ key: 'street', label: 'Rue', kind: 'line', min: 2, max: 120 },
	{ key: 'postalCode', label: 'Code postal', kind: 'line', min: 5, max: 5 },
	{ key: 'city', label: 'Ville', kind: 'line', min: 2, max: 80 },
	{ key: 'phone', label: 'Téléphone', kind: 'line', min: 10, max: 20, phone: true },
	{ key: 'email', label: 'E-mail', kind: 'line', min: 6, max: 120 },
	{ key: 'heroTitle', label: 'Accroche', kind: 'line', min: 5, max: 90 },
	{ key: 'heroLead', label: 'Chapeau', kind: 'text', min: 20, max: 300 },
	titledTexts('services', 'Services', 'Service', 1, 8),
	{ key: 'aboutTitle', label: 'Titre « Qui sommes-nous »', kind: 'line', min: 5, max: 90 },
	body('Texte « Qui sommes-nous »'),
	testimonials(TESTIMONIAL_FIELDS),
	{ key: 'areas', label: 'Communes desservies', kind: 'lines', itemMax: 60, min: 1, max: 20 },
	{ key: 'ctaTitle', label: 'Appel à l’action : titre', kind: 'line', min: 5, max: 90 },
	{ key: 'ctaText', label: 'Appel à l’action : texte', kind: 'text', min: 10, max: 300 },
	{ key: 'ctaLabel', label: 'Appel à l’action : bouton', kind: 'line', min: 3, max: 40 }
] as const satisfies readonly FieldSpec[];
const LEGAL = [
	TITLE,
	DESCRIPTION,
	body('Texte'),
	{
		key: 'updated',
		label: 'Dernière mise à jour',
		kind: 'line',
		min: 10,
		max: 10,
		hint: 'Mise à la date du jour à chaque publication.'
	}
] as const satisfies readonly FieldSpec[];
const line = <const K extends string>(key: K, label: string, max = 120, min = 1) =>
	spec({ key, label, kind: 'line', min, max });
const group = <const K extends string, const F extends readonly FieldSpec[]>(
	key: K,
	label: string,
	fields: F
) => spec({ key, label, kind: 'group', fields });

/** The company file: what the pages, the legal texts, the e-mails and the attestation say of the company. */
const COMPANY = [
	line('brand', 'Marque', 40, 2),
	line('tagline', 'Signature', 90, 5),
	line('legalName', 'Raison sociale', 120, 2),
	line('legalForm', 'Forme juridique', 120, 2),
	line('shareCapital', 'Capital social', 40),
	line('registration', 'Immatriculation (RCS)', 80, 5),
	line('siren', 'SIREN', 11, 9),
	line('siret', 'SIRET', 17, 14),
	line('vatNumber', 'N° de TVA intracommunautaire', 20, 4),
	line('trainingDeclaration', 'Déclaration d’activité de formation', 160, 5),
	group('address', 'Adresse', [
		line('street', 'Rue', 120, 2),
		line('postalCode', 'Code postal', 10, 4),
		line('city', 'Ville', 80, 2),
		line('country', 'Pays', 60, 2)
	]),
	line('email', 'E-mail de contact', 120, 6),
	line('privacyEmail', 'E-mail des données personnelles', 120, 6),
	{ key: 'phone', label: 'Téléphone', kind: 'line', min: 10, max: 20, phone: true },
	line('publicationDirector', 'Directeur ou directrice de la publication', 120, 2),
	line('publicationDirectorTitle', 'Titre (« Directrice de la publication »)', 60, 5),
	group('host', 'Hébergeur', [
		line('name', 'Nom', 120, 2),
		line('address', 'Adresse', 160, 5),
		line('phone', 'Téléphone', 20, 2),
		line('website', 'Site', 120, 8)
	]),
	group('mediator', 'Médiateur de la consommation', [
		line('name', 'Nom', 160, 2),
		line('address', 'Adresse', 160, 5),
		line('website', 'Site', 120, 8)
	]),
	group('training', 'Formation', [
		line('name', 'Nom du programme (tant que « Cours » ne le nomme pas)', 80, 5),
		line('replyDelay', 'Délai de réponse aux candidatures', 60, 5),
		line('monthlyPriceTtc', 'Prix mensuel TTC', 20, 2)
	])
] as const satisfies readonly FieldSpec[];

/** Every entry the site has from the start; articles are added by the admin (`ARTICLE`). */
export const ENTRIES = {
	home: {
		kind: 'page',
		label: 'Accueil',
		fields: [
			TITLE,
			DESCRIPTION,
			{ key: 'heroTitle', label: 'Accroche', kind: 'line', min: 5, max: 90 },
			{ key: 'heroLead', label: 'Chapeau', kind: 'text', min: 20, max: 300 },
			titledTexts('services', 'Services (une photo chacun)', 'Service', 3, 3),
			titledTexts('steps', 'Étapes', 'Étape', 2, 6),
			body('Texte « Qui sommes-nous »'),
			testimonials([
				...TESTIMONIAL_FIELDS,
				spec({ key: 'example', label: 'Exemple à remplacer', kind: 'flag' })
			]),
			{
				key: 'faq',
				label: 'Questions fréquentes',
				kind: 'list',
				item: 'Question',
				min: 0,
				max: 12,
				fields: [
					{ key: 'q', label: 'Question', kind: 'line', min: 5, max: 120 },
					{ key: 'a', label: 'Réponse', kind: 'text', min: 10, max: 600 }
				]
			}
		]
	},
	macon: { kind: 'page', label: 'Démo maçon', fields: DEMO },
	paysagiste: { kind: 'page', label: 'Démo paysagiste', fields: DEMO },
	candidature: {
		kind: 'page',
		label: 'Formation (candidature)',
		fields: [TITLE, DESCRIPTION, optionalBody('Introduction')]
	},
	contact: {
		kind: 'page',
		label: 'Contact',
		fields: [
			TITLE,
			DESCRIPTION,
			{ key: 'lead', label: 'Chapeau', kind: 'text', min: 20, max: 400 },
			optionalBody('Texte sous le formulaire')
		]
	},
	devis: {
		kind: 'page',
		label: 'Devis (démo maçon)',
		fields: [
			TITLE,
			DESCRIPTION,
			{ key: 'lead', label: 'Chapeau', kind: 'text', min: 20, max: 400 },
			optionalBody('Texte sous le formulaire')
		]
	},
	'mentions-legales': { kind: 'page', label: 'Mentions légales', fields: LEGAL },
	cgv: { kind: 'page', label: 'Conditions générales de vente', fields: LEGAL },
	confidentialite: { kind: 'page', label: 'Politique de confidentialité', fields: LEGAL },
	company: { kind: 'company', label: 'Fiche de l’entreprise', fields: COMPANY }
} as const satisfies Record<string, EntryModel>;

export type FixedEntryId = keyof typeof ENTRIES;
/** The page entries (the company file has no page). */
export type PageId = Exclude<FixedEntryId, 'company'>;
/** Each fixed entry's fields, as its specs make them. */
export type EntryFields<Id extends FixedEntryId> = FieldsOf<(typeof ENTRIES)[Id]['fields']>;

/** The legal pages, their one list: their routes, their seed, the company file's reach and their tests read it. */
export const LEGAL_PAGE_IDS = ['mentions-legales', 'cgv', 'confidentialite'] as const;
export type LegalPageId = (typeof LEGAL_PAGE_IDS)[number];

/** Where each page entry is served (the company file has no page). */
export const ENTRY_PATHS: Record<PageId, string> = {
	home: '/',
	macon: '/macon',
	paysagiste: '/paysagiste',
	candidature: '/candidature',
	contact: '/contact',
	devis: '/devis',
	'mentions-legales': '/mentions-legales',
	cgv: '/cgv',
	confidentialite: '/confidentialite'
};

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const ARTICLE: EntryModel = {
	kind: 'article',
	label: 'Article',
	fields: [
		TITLE,
		DESCRIPTION,
		{ key: 'slug', label: 'Adresse (slug)', kind: 'slug' },
		{ key: 'cover', label: 'Photo de couverture', kind: 'cover' },
		body('Texte')
	]
};

export function modelOf(id: string, kind: EntryKind): EntryModel {
	if (kind === 'article') return ARTICLE;
	const model = (ENTRIES as Record<string, EntryModel>)[id];
	if (!model) throw new Error(`no content model for ${id}`);
	return model;
}

export const articlePath = (slug: string) => `/blog/${slug}`;

/** The blog's first page of articles and the feed's length. */
export const ARTICLES_PER_PAGE = 10;
/**
 * How long a browser may keep an article's 301 (seconds): an hour, not forever — a 301 without Cache-Control is
 * kept for good, and an article renamed A → B then back to A would send its returning readers round in circles.
 */
export const MOVED_MAX_AGE = 3600;
export const FEED_LENGTH = 20;
/** A draft older than this is mentioned in the dashboard's « À faire ». */
export const STALE_DRAFT_DAYS = 7;
