import { orErrorPage } from '$lib/server/http/pages';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ params }) =>
	orErrorPage(() => ({
		page: showcase.collectionPage('services', params.slug),
		others: showcase.cards.services().filter((s) => s.path !== `/services/${params.slug}`)
	}));
