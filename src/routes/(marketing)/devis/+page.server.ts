import { leadFormAction, leadFormLoad } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => leadFormLoad('devis');

export const actions: Actions = {
	default: (event) => leadFormAction('devis', event)
};
