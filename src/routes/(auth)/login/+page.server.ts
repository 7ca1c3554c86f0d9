import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { loginSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { db } from '$lib/server/db';
import { formFailure, unlessOutage } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, auth.afterSignIn(locals.user, url.searchParams.get('redirectTo')));
	return {
		form: await superValidate(zod4(loginSchema)),
		// Runs again after a failed action: an outage must not turn the form's 503 answer into an error page.
		needsSetup: !(await unlessOutage(() => auth.adminExists(db), true))
	};
};

export const actions: Actions = {
	default: async (event) => {
		const form = await superValidate(event.request, zod4(loginSchema));
		if (!form.valid) return fail(400, { form });
		let user;
		try {
			user = await auth.signIn(db, form.data.email, form.data.password, event.getClientAddress());
		} catch (error) {
			form.data.password = '';
			return formFailure(event, form, error);
		}
		await auth.signInAndSetCookie(event, user.id);
		redirect(303, auth.afterSignIn(user, event.url.searchParams.get('redirectTo')));
	}
};
