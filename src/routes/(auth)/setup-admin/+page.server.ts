import { fail } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { setupAdminSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { enterWithProof } from '$lib/server/http/session-cookie';
import type { Actions, PageServerLoad } from './$types';

/** Checked in the browser before it is sent: SvelteKit's client runs here (a page visited once). */
export const csr = true;

export const load: PageServerLoad = async () => {
	return {
		form: await superValidate(zod4(setupAdminSchema)),
		configured: (await auth.adminState()) === 'exists'
	};
};

export const actions: Actions = {
	default: async (event) => {
		const form = await superValidate(event.request, zod4(setupAdminSchema));
		if (!form.valid) return fail(400, { form });
		return enterWithProof(event, form, () => auth.setupFirstAdmin(form.data, event.getClientAddress()), {
			redirectTo: '/admin'
		});
	}
};
