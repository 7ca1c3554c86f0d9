import { leadFormAction, leadFormLoad } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => leadFormLoad('contact');

export const actions: Actions = {
	default: (event) => leadFormAction('contact', event)
};
