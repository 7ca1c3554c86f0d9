import * as showcase from '$lib/server/showcase';
import { contactForm, devisForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

/**
 * A public form sent without SvelteKit's client: it posts to its action and the server answers with the page
 * (errors at the fields and beside the button, or the confirmation at its anchor). On a phone that is a fast
 * page instead of a framework to hydrate; $lib/platform/enhance.js keeps the button from being pressed twice.
 */
export const csr = false;

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
