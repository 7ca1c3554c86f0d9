import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { loginSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import {
	deviceCookieOf,
	setDeviceCookie,
	setPendingSignIn,
	signInAndSetCookie
} from '$lib/server/http/session-cookie';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, auth.afterSignIn(locals.user, url.searchParams.get('redirectTo')));
	return { form: await superValidate(zod4(loginSchema)), needsSetup: (await auth.adminState()) === 'none' };
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
			return formFailure(event, form, error);
		}
		const { user, deviceToken } = signedIn;
		if (await auth.hasSecondFactor(user.id)) {
			// The password was right; the session opens only once the code is too (/login/code).
			setPendingSignIn(event.cookies, auth.issuePendingSignIn(user.id));
			const redirectTo = event.url.searchParams.get('redirectTo');
			redirect(303, `/login/code${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`);
		}
		await signInAndSetCookie(event, user.id);
		setDeviceCookie(event.cookies, deviceToken);
		redirect(303, auth.afterSignIn(user, event.url.searchParams.get('redirectTo')));
	}
};
