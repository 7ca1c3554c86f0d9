import { fail } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { RESET_LINK_SENT } from '$lib/messages';
import { resetRequestSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

/** Checked in the browser before it is sent: SvelteKit's client runs here. */
export const csr = true;

export const load: PageServerLoad = async () => ({ form: await superValidate(zod4(resetRequestSchema)) });

export const actions: Actions = {
	default: async (event) => {
		const form = await superValidate(event.request, zod4(resetRequestSchema));
		if (!form.valid) return fail(400, { form });
		try {
			await auth.sendPasswordReset(form.data.email, event.getClientAddress());
		} catch (error) {
			return formFailure(event, form, error);
		}
		// The same answer whether the address has an account or not.
		return message(form, { type: 'success', text: RESET_LINK_SENT });
	}
};
