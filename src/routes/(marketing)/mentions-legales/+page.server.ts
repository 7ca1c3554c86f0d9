import * as content from '$lib/server/content';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** The agency's legal page in platform mode (its entry); the business's in showcase mode (a content file). */
export const load: PageServerLoad = async ({ url, locals, setHeaders }) => {
	if (showcase.isActive()) return { showcase: showcase.singlePage('/mentions-legales'), legal: null };
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	return { showcase: null, legal: await content.legalPage('mentions-legales', preview) };
};
