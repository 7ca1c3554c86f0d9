import { demoPageData } from '../demo-page.server';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) => demoPageData('macon', event);
