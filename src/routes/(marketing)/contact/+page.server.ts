import * as content from '$lib/server/content';
import * as showcase from '$lib/server/showcase';
import { contactForm, devisForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

/**
 * The agency's audit request in platform mode; in showcase mode, the business's quote request (the devis form,
 * CONTRACT §4) with its hours, phone and map.
 */
export const load: PageServerLoad = async ({ url, locals, setHeaders }) => {
	if (showcase.isActive())
		return {
			contact: null,
			showcase: { page: showcase.singlePage('/contact'), ...(await devisForm.load()) }
		};
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	const [form, page] = await Promise.all([contactForm.load(), content.page('contact', preview)]);
	return { contact: { ...form, page }, showcase: null };
};

export const actions: Actions = {
	default: (event) => (showcase.isActive() ? devisForm.action(event) : contactForm.action(event))
};
