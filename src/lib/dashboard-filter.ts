/**
 * The dashboard's filter as its URL writes it (`/admin?periode=30j&source=google.fr`), shared by the server that
 * reads it (insights/dashboard.ts `filterOf`) and the page that writes its links: a filtered dashboard is a link
 * that can be shared, and works without JavaScript.
 */

/** What the audience figures can be narrowed to; each absent when not asked. `source: ''` is direct access. */
export interface AudienceFilter {
	page?: string;
	source?: string;
	campaign?: string;
	device?: 'mobile' | 'tablet' | 'desktop';
}

/** The URL's word for each filter. */
export const FILTER_PARAMS = {
	page: 'page',
	source: 'source',
	campaign: 'campagne',
	device: 'appareil'
} as const satisfies Record<keyof AudienceFilter, string>;

/** The query string of a period and a filter, in one order, so that one view has one URL. */
export function dashboardSearch(period: string, filter: AudienceFilter): string {
	const search = new URLSearchParams({ periode: period });
	for (const key of Object.keys(FILTER_PARAMS) as (keyof AudienceFilter)[]) {
		const value = filter[key];
		if (value !== undefined) search.set(FILTER_PARAMS[key], value);
	}
	return `?${search}`;
}
