/**
 * Which routes exist in which site mode (CONTRACT §2 `SITE_MODE`), by SvelteKit route id. Showcase pages live in
 * the `(showcase)` group; a few routes serve both modes (each page renders the mode's own content); every other
 * route belongs to the platform and answers 404 in showcase mode — its handler never runs. Dependency-free.
 */
import { PAGES, type SiteMode } from './registry';

/** Routes of both modes: the registry's pages of both modes, the home page, and these endpoints. */
export const SHARED_ROUTE_IDS: ReadonlySet<string> = new Set([
	...PAGES.filter((page) => page.modes.length === 2).map((page) => page.route),
	// The home page's route renders either mode's home (the showcase's is not a registry page).
	'/(marketing)',
	// An article: the agency's (a content entry) or the business's (a Markdown file), one route.
	'/(marketing)/blog/[slug=slug]',
	'/api/contact',
	'/healthz',
	'/metrics',
	'/readyz',
	'/robots.txt',
	'/sitemap.xml'
]);

export function routeExistsIn(routeId: string | null, mode: SiteMode): boolean {
	// No route: SvelteKit answers 404 itself.
	if (routeId === null) return true;
	if (routeId === '/(showcase)' || routeId.startsWith('/(showcase)/')) return mode === 'showcase';
	if (SHARED_ROUTE_IDS.has(routeId)) return true;
	return mode === 'platform';
}
