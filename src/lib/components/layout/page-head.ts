/** What a page says of itself in its head (PageHead.svelte), and what the pages built on it take. */
export interface PageHeadProps {
	/** The tab's title, before the brand. */
	title: string;
	/** For search results and shared links; every page has one, indexed or not. */
	description: string;
	/** Pages with nothing for a search engine (a confirmation, the first-admin setup, password links) say so. */
	noindex?: boolean;
}
