import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({ page: showcase.singlePage('/partenaires') });
