import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params }) => {
	const page = showcase.collectionPage('secteurs', params.slug);
	const areas = showcase.cards.secteurs();
	return {
		page,
		nearby: page.entry.meta.nearby.flatMap((slug) => areas.filter((a) => a.path === `/secteurs/${slug}`)),
		services: showcase.cards.services()
	};
};
