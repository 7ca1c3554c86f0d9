import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { loginSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { RateLimitedError } from '$lib/server/errors';
import { deviceCookieOf, enterAccount } from '$lib/server/http/session-cookie';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, auth.afterSignIn(locals.user, url.searchParams.get('redirectTo')));
	return {
		form: await superValidate(zod4(loginSchema)),
		needsSetup: (await auth.adminState()) === 'none'
	};
};

export const actions: Actions = {
	default: async (event) => {
		const form = await superValidate(event.request, zod4(loginSchema));
		if (!form.valid) return fail(400, { form });
		let signedIn;
		try {
			signedIn = await auth.signIn(
				form.data.email,
				form.data.password,
				event.getClientAddress(),
				deviceCookieOf(event.cookies)
			);
		} catch (error) {
			form.data.password = '';
			const failure = formFailure(event, form, error);
			// Strangers keep this account (or this address) slowed down: its owner can make this browser known.
			if (error instanceof RateLimitedError)
				return fail(failure.status, { form: failure.data.form, offerDeviceLink: form.data.email });
			return failure;
		}
		// The password was right: the session opens now, or after the code when the account has a second factor.
		return enterAccount(event, signedIn.proof, {
			redirectTo: event.url.searchParams.get('redirectTo'),
			deviceToken: signedIn.deviceToken
		});
	}
};
