import * as images from '$lib/server/images';
import { canonicalUrl } from '$lib/server/pages/seo';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async () => ({
	images: await images.pageImages('/paysagiste'),
	canonical: canonicalUrl('/paysagiste')
});
