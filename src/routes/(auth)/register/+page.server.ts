import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { registerSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { enterWithProof } from '$lib/server/http/session-cookie';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, auth.afterSignIn(locals.user, url.searchParams.get('redirectTo')));
	return { form: await superValidate(zod4(registerSchema)) };
};

export const actions: Actions = {
	default: async (event) => {
		const form = await superValidate(event.request, zod4(registerSchema));
		if (!form.valid) return fail(400, { form });
		return enterWithProof(event, form, () => auth.register(form.data, event.getClientAddress()), {
			redirectTo: event.url.searchParams.get('redirectTo')
		});
	}
};
