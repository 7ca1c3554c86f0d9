import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** Content only, no form: sent without SvelteKit's client (nothing to hydrate on a phone's main thread). */
export const csr = false;

/** The agency's text in platform mode (the page's own markup); the business's content file in showcase mode. */
export const load: PageServerLoad = () => ({
	showcase: showcase.isActive() ? showcase.singlePage('/mentions-legales') : null
});
