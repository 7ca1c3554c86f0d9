import { devisForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = () => devisForm.load();

export const actions: Actions = {
	default: (event) => devisForm.action(event)
};
