import { contactForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => contactForm.load();

export const actions: Actions = {
	default: (event) => contactForm.action(event)
};
