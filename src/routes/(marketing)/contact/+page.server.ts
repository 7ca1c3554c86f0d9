import * as showcase from '$lib/server/showcase';
import { contactForm, devisForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

/**
 * The agency's audit request in platform mode; in showcase mode, the business's quote request (the devis form,
 * CONTRACT §4) with its hours, phone and map.
 */
export const load: PageServerLoad = async () =>
	showcase.isActive()
		? { contact: null, showcase: { page: showcase.singlePage('/contact'), ...(await devisForm.load()) } }
		: { contact: await contactForm.load(), showcase: null };

export const actions: Actions = {
	default: (event) => (showcase.isActive() ? devisForm.action(event) : contactForm.action(event))
};
