import { orErrorPage } from '$lib/server/http/pages';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params }) => {
	const page = await orErrorPage(() => showcase.collectionPage('secteurs', params.slug));
	const areas = showcase.cards.secteurs();
	return {
		page,
		nearby: page.entry.meta.nearby.flatMap((slug) => areas.filter((a) => a.path === `/secteurs/${slug}`)),
		services: showcase.cards.services()
	};
};
