import { leadFormAction, leadFormLoad } from '$lib/server/leads/page';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => leadFormLoad('devis');

export const actions: Actions = {
	default: (event) => leadFormAction('devis', event)
};
