import { slotPageData } from '$lib/server/pages/page-data';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ url }) => slotPageData(url.pathname);
