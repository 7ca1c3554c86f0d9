import * as content from '$lib/server/content';
import { orErrorPage } from '$lib/server/http/pages';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** The agency's legal page in platform mode; the business's in showcase mode (each a content file). */
export const load: PageServerLoad = async () =>
	showcase.isActive()
		? { showcase: showcase.singlePage('/cgv'), legal: null }
		: { showcase: null, legal: await orErrorPage(() => content.legalPage('cgv')) };
