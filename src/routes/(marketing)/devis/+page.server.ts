import { devisForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

/**
 * A public form sent without SvelteKit's client: it posts to its action and the server answers with the page
 * (errors at the fields and beside the button, or the confirmation at its anchor). On a phone that is a fast
 * page instead of a framework to hydrate; $lib/platform/enhance.js keeps the button from being pressed twice.
 */
export const csr = false;

export const load: PageServerLoad = () => devisForm.load();

export const actions: Actions = {
	default: (event) => devisForm.action(event)
};
