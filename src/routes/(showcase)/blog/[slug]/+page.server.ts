import { orErrorPage } from '$lib/server/http/pages';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params }) =>
	orErrorPage(() => ({
		page: showcase.collectionPage('blog', params.slug),
		others: showcase.cards
			.articles()
			.filter((a) => a.path !== `/blog/${params.slug}`)
			.slice(0, 3)
	}));
