import { slotPageData } from '$lib/server/pages/page-data';
import type { PageServerLoad } from './$types';

/** Content only, no form: sent without SvelteKit's client (nothing to hydrate on a phone's main thread). */
export const csr = false;

export const load: PageServerLoad = ({ url }) => slotPageData(url.pathname);
