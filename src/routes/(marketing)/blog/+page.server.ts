import { error } from '@sveltejs/kit';
import * as content from '$lib/server/content';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** The agency's articles in platform mode (its entries, newest first, `?page=2`…); the business's in showcase mode. */
export const load: PageServerLoad = async ({ url }) => {
	if (showcase.isActive())
		return { page: showcase.singlePage('/blog'), articles: showcase.cards.articles(), agency: null };
	const asked = url.searchParams.get('page');
	const n = asked === null ? 1 : /^\d{1,6}$/.test(asked) ? Number(asked) : NaN;
	const list = await content.blogPage(n);
	if (!list) error(404, 'Cette page du blog n’existe pas.');
	const canonical = content.canonicalUrl(n === 1 ? '/blog' : `/blog?page=${n}`);
	return { page: null, articles: [], agency: { ...list, canonical } };
};
