import { leadFormAction, leadFormLoad } from '$lib/server/leads/page';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => leadFormLoad('contact');

export const actions: Actions = {
	default: (event) => leadFormAction('contact', event)
};
