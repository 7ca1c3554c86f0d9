/**
 * The platform's public pages, listed once. Everything that depends on which pages exist is derived from
 * `PAGES`: the page cache (which paths, how long), the image slots of each page and its bundled fallback image,
 * the labels shown in the navigation and the admin, and the sitemap. Adding a cached page is one line here (plus
 * its route). Showcase mode's pages come from its content index instead (src/lib/server/showcase/content.ts):
 * there, this list only answers "which platform pages exist", and the shared routes render the business's content.
 *
 * Dependency-free on purpose: the SvelteKit app imports it on both sides (the header's navigation runs in the
 * browser), and so does the server entry through the page cache, which esbuild bundles separately.
 */

export type SiteMode = 'platform' | 'showcase';

export interface PageSlots {
	/** SEED.md part 2: a slot key starting with this prefix belongs to the page; '' takes every other key. */
	prefix: string;
	/** The image shown when neither the chosen nor the stock image can be fetched (src/lib/server/images/fallback/). */
	fallback: string;
}

export interface PageEntry {
	path: string;
	/** The SvelteKit route that renders it (hooks.server.ts answers 404 for a route of the other mode: modes.ts). */
	route: string;
	/** French, short: navigation links and the admin's grouping of images. */
	label: string;
	modes: readonly SiteMode[];
	/** Listed in the sitemap. */
	indexable: boolean;
	/** Linked from the header's navigation, in registry order. */
	nav?: boolean;
	/** Whole-page cache for anonymous visitors (CONTRACT §4); absent: rendered on every request. */
	cacheSeconds?: number;
	slots?: PageSlots;
	/** Rendered with <Seo>, which gives it an Open Graph card of its own; other pages share the site's. */
	ownSocialCard?: true;
}

const BOTH: readonly SiteMode[] = ['platform', 'showcase'];
const PLATFORM: readonly SiteMode[] = ['platform'];

// prettier-ignore
export const PAGES = [
	{ path: '/', route: '/(marketing)', label: 'Accueil', modes: PLATFORM, indexable: true, nav: true, cacheSeconds: 60, slots: { prefix: '', fallback: 'home.webp' }, ownSocialCard: true },
	{ path: '/macon', route: '/(marketing)/macon', label: 'Démo maçon', modes: PLATFORM, indexable: true, nav: true, cacheSeconds: 60, slots: { prefix: 'macon_', fallback: 'macon.webp' }, ownSocialCard: true },
	{ path: '/paysagiste', route: '/(marketing)/paysagiste', label: 'Démo paysagiste', modes: PLATFORM, indexable: true, nav: true, cacheSeconds: 60, slots: { prefix: 'paysagiste_', fallback: 'paysagiste.webp' }, ownSocialCard: true },
	{ path: '/devis', route: '/(marketing)/devis', label: 'Devis (démo maçon)', modes: PLATFORM, indexable: true },
	// The programme sheet (Qualiopi's indicator 1): the navigation's « Formation »; its button leads to the candidature.
	{ path: '/formation', route: '/(marketing)/formation', label: 'Formation', modes: PLATFORM, indexable: true, nav: true },
	{ path: '/candidature', route: '/(marketing)/candidature', label: 'Candidature', modes: PLATFORM, indexable: true },
	{ path: '/contact', route: '/(marketing)/contact', label: 'Contact', modes: BOTH, indexable: true, nav: true },
	{ path: '/mentions-legales', route: '/(marketing)/mentions-legales', label: 'Mentions légales', modes: BOTH, indexable: true },
	{ path: '/cgv', route: '/(marketing)/cgv', label: 'Conditions générales de vente', modes: BOTH, indexable: true },
	{ path: '/confidentialite', route: '/(marketing)/confidentialite', label: 'Politique de confidentialité', modes: BOTH, indexable: true },
	// The agency's articles (content entries) or the business's (Markdown files): the sitemap and the header list it
	// once it has an article (src/routes/sitemap.xml, the root layout), not from here.
	{ path: '/blog', route: '/(marketing)/blog', label: 'Blog', modes: BOTH, indexable: false, ownSocialCard: true }
] as const satisfies readonly PageEntry[];

/**
 * The private areas: the admin and the members' space (every folder of `src/routes/admin` and
 * `src/routes/(members)`: tests/static/private-paths.test.ts). Nothing under them is kept by a browser's or a
 * proxy's cache (hooks.server.ts), whatever the route answers, nor counted by the audience.
 */
export const PRIVATE_AREAS = [
	'/admin',
	'/api/admin',
	'/dashboard',
	'/profil',
	'/cours',
	'/aide',
	'/bilan',
	'/questions'
] as const;

/**
 * The account's pages (`src/routes/(auth)`, and sign-out): anyone's to see, so not private, but the audience does
 * not count them (a sign-in is not a visit of the site).
 */
export const ACCOUNT_PAGES = [
	'/login',
	'/logout',
	'/register',
	'/setup-admin',
	'/mot-de-passe',
	'/mot-de-passe-oublie'
] as const;

/**
 * Pages anyone may open but whose address is a bearer's code (`/attestation/{code}`, `/rappels/{token}`): never
 * counted, so that no code lands in the audience's tables.
 */
export const CODE_PAGES = ['/attestation', '/rappels', '/avis'] as const;

/** What is not a page of the site: the API, the assets and images, the probes. */
const MACHINE_PATHS = ['/api', '/_app', '/storage', '/healthz', '/readyz', '/metrics'] as const;

const under = (areas: readonly string[], path: string) =>
	areas.some((area) => path === area || path.startsWith(`${area}/`));

export const isPrivatePath = (path: string): boolean => under(PRIVATE_AREAS, path);

/**
 * What the audience never counts (insights/audience.ts): the private areas, the account's pages, the pages of a
 * code, machine paths.
 */
export const isUncountedPath = (path: string): boolean =>
	under(PRIVATE_AREAS, path) ||
	under(ACCOUNT_PAGES, path) ||
	under(CODE_PAGES, path) ||
	under(MACHINE_PATHS, path);

/** The paths of the pages that have image slots. */
export type SlotPage<P extends readonly PageEntry[]> = Extract<P[number], { slots: PageSlots }>['path'];
export type SitePage = SlotPage<typeof PAGES>;

export interface SitemapEntry {
	path: string;
}

export function createPageRegistry<const P extends readonly PageEntry[]>(pages: P) {
	type WithSlots = P[number] & { path: SlotPage<P>; slots: PageSlots };
	const slotPages = pages.filter((p): p is WithSlots => p.slots !== undefined);
	// Longest prefix first, so that '' (every other key) is tried last.
	const byPrefix = [...slotPages].sort((a, b) => b.slots.prefix.length - a.slots.prefix.length);
	const catchAll = byPrefix.at(-1);
	if (!catchAll || catchAll.slots.prefix !== '')
		throw new Error("page registry: one page with slots must take every other key (prefix '')");
	const inMode = (mode: SiteMode) => pages.filter((p) => p.modes.includes(mode));
	const cachedAmong = (list: readonly PageEntry[]): ReadonlySet<string> =>
		new Set(list.filter((p) => p.cacheSeconds).map((p) => p.path));
	const cached = {
		any: cachedAmong(pages),
		platform: cachedAmong(inMode('platform')),
		showcase: cachedAmong(inMode('showcase'))
	};
	// Read on every cache hit: a map, not a search (the first entry of a path wins, as in `find`).
	const freshMs = new Map([...pages].reverse().map((p) => [p.path, (p.cacheSeconds ?? 0) * 1000]));

	return {
		pages,
		slotPages: slotPages as readonly WithSlots[],
		inMode,
		/** The first page at `path` that exists in `mode` (or in any mode). */
		find: (path: string, mode?: SiteMode): P[number] | undefined =>
			pages.find((p) => p.path === path && (!mode || p.modes.includes(mode))),
		/** Whether the page at `path` carries an Open Graph card of its own (else the layout adds the site's). */
		hasOwnSocialCard: (path: string, mode: SiteMode): boolean =>
			(pages.find((p) => p.path === path && p.modes.includes(mode)) as PageEntry | undefined)
				?.ownSocialCard === true,
		/** Paths served from the page cache in `mode`; without a mode, in any mode (to honour purges). */
		cachedPaths: (mode?: SiteMode): ReadonlySet<string> => cached[mode ?? 'any'],
		/** How long a cached page stays fresh; 0 for a page that is not cached. */
		freshMs: (path: string): number => freshMs.get(path) ?? 0,
		/** The page a slot key belongs to, by the prefix rule of SEED.md part 2. */
		pageOfKey: (key: string): SlotPage<P> => byPrefix.find((p) => key.startsWith(p.slots.prefix))!.path,
		labelOf: (path: SlotPage<P>): string => slotPages.find((p) => p.path === path)!.label,
		nav: (mode: SiteMode) => inMode(mode).filter((p) => p.nav),
		/** What a sitemap lists in `mode`: the indexable pages, in registry order. */
		sitemap: (mode: SiteMode): SitemapEntry[] =>
			inMode(mode)
				.filter((p) => p.indexable)
				.map((p) => ({ path: p.path }))
	};
}

export type PageRegistry = ReturnType<typeof createPageRegistry>;

export const pages = createPageRegistry(PAGES);
