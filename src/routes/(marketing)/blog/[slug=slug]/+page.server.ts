import { error, redirect } from '@sveltejs/kit';
import { MOVED_MAX_AGE } from '$lib/content/model';
import * as content from '$lib/server/content';
import { orErrorPage } from '$lib/server/http/pages';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/**
 * An article: the agency's entry in platform mode (a moved address answers 301 to the new one; a draft only in an
 * admin's preview), the business's content file in showcase mode.
 */
export const load: PageServerLoad = async ({ params, url, locals, setHeaders }) => {
	if (showcase.isActive())
		return orErrorPage(() => ({
			agency: null,
			page: showcase.collectionPage('blog', params.slug),
			others: showcase.cards
				.articles()
				.filter((a) => a.path !== `/blog/${params.slug}`)
				.slice(0, 3)
		}));
	const preview = content.isPreview(url, locals.user);
	const answer = await content.article(params.slug, preview);
	if (!answer) error(404, 'Cet article n’existe pas ou n’est plus en ligne.');
	if ('redirect' in answer) {
		// Kept an hour (MOVED_MAX_AGE), not for good; the query (?utm_…) goes along.
		setHeaders({ 'cache-control': `public, max-age=${MOVED_MAX_AGE}` });
		redirect(301, `${answer.redirect}${url.search}`);
	}
	if (answer.preview) setHeaders({ 'x-robots-tag': 'noindex' });
	return {
		agency: {
			article: answer.article,
			canonical: content.canonicalUrl(answer.article.path),
			preview: answer.preview
		},
		page: null,
		others: []
	};
};
