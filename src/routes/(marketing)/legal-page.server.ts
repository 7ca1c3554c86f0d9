import type { RequestEvent } from '@sveltejs/kit';
import * as content from '$lib/server/content';
import * as showcase from '$lib/server/showcase';

type LegalId = Parameters<typeof content.legalPage>[0];

/**
 * A legal page (`/cgv`, `/confidentialite`, `/mentions-legales`): the agency's in platform mode (its entry, live
 * or the admin's draft in preview), the business's in showcase mode (a content file at the same path).
 */
export async function legalPageData(id: LegalId, { url, locals, setHeaders }: RequestEvent) {
	if (showcase.isActive()) return { showcase: showcase.singlePage(`/${id}`), legal: null };
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	return { showcase: null, legal: await content.legalPage(id, preview) };
}
