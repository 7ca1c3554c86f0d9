import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** The agency's text in platform mode (the page's own markup); the business's content file in showcase mode. */
export const load: PageServerLoad = () => ({
	showcase: showcase.isActive() ? showcase.singlePage('/cgv') : null
});
