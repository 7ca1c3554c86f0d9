import { legalPageData } from '../legal-page.server';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) => legalPageData('mentions-legales', event);
