import { db } from '$lib/server/db';
import * as images from '$lib/server/images';
import { canonicalUrl } from '$lib/server/pages/seo';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async () => ({
	images: await images.imagesOfPage(db, '/'),
	canonical: canonicalUrl('/')
});
