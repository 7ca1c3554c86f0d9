import * as images from '$lib/server/images';
import type { PageImage } from '$lib/server/images';
import * as content from '$lib/server/content';
import * as showcase from '$lib/server/showcase';
import type { PageServerLoad } from './$types';

/** `/` is the agency's home in platform mode (its words: the `home` entry) and the business's home in showcase mode. */
export const load: PageServerLoad = async ({ url, locals, setHeaders }) => {
	if (showcase.isActive())
		return { showcase: showcase.home(), home: null, images: {} as Record<string, PageImage>, canonical: '' };
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	const [home, slots] = await Promise.all([content.page('home', preview), images.slotPageData(url.pathname)]);
	return { showcase: null, home, ...slots };
};
