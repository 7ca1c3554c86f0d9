/**
 * The agency's legal pages (mentions légales, CGV, confidentialité) as LegalPage.svelte shows them: entries like
 * every page (their first revision is src/content/agency/legal/*.md), whose body names the company through
 * `{{company.…}}` — filled from the company file's live revision, so a change of address reaches them at once.
 * « Dernière mise à jour » is the day of the last publish (service.ts sets it).
 */
import type { LegalContent } from '$lib/content/pages';
import { typeset } from '$lib/typography';

export interface LegalPage {
	html: string;
	meta: { title: string; description: string; updated: string };
}

export function legalContent(page: LegalContent): LegalPage {
	// The body is typeset as it renders; the title and description are typeset here.
	return {
		html: page.html,
		meta: { title: typeset(page.title), description: typeset(page.description), updated: page.updated }
	};
}
