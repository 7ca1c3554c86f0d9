import type { PageImage } from '$lib/server/images';
import { slotPageData } from '$lib/server/pages/page-data';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** `/` is the agency's home in platform mode and the business's home in showcase mode. */
export const load: PageServerLoad = async ({ url }) =>
	showcase.isActive()
		? { showcase: showcase.home(), images: {} as Record<string, PageImage>, canonical: '' }
		: { showcase: null, ...(await slotPageData(url.pathname)) };
