import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { loginSchema, resetRequestSchema } from '$lib/schemas/auth';
import { DEVICE_LINK_SENT } from '$lib/messages';
import * as auth from '$lib/server/auth';
import { RateLimitedError } from '$lib/server/errors';
import { deviceCookieOf, enterAccount } from '$lib/server/http/session-cookie';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ locals, url }) => {
	if (locals.user) redirect(303, auth.afterSignIn(locals.user, url.searchParams.get('redirectTo')));
	return {
		form: await superValidate(zod4(loginSchema)),
		deviceLinkForm: await superValidate(zod4(resetRequestSchema), { id: 'device-link' }),
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
			if (error instanceof RateLimitedError) {
				const deviceLinkForm = await superValidate({ email: form.data.email }, zod4(resetRequestSchema), {
					id: 'device-link',
					errors: false
				});
				return fail(failure.status, { form: failure.data.form, deviceLinkForm, offerDeviceLink: true });
			}
			return failure;
		}
		// The password was right: the session opens now, or after the code when the account has a second factor.
		return enterAccount(event, signedIn.user, {
			redirectTo: event.url.searchParams.get('redirectTo'),
			deviceToken: signedIn.deviceToken
		});
	},
	/**
	 * « Recevoir un lien pour ce navigateur »: the same answer whether the account exists or not, and whether a link
	 * already went in the last five minutes.
	 */
	deviceLink: async (event) => {
		const form = await superValidate(event.request, zod4(resetRequestSchema), { id: 'device-link' });
		if (!form.valid) return fail(400, { deviceLinkForm: form });
		try {
			await auth.sendDeviceLink(form.data.email, event.getClientAddress(), {
				userAgent: event.request.headers.get('user-agent'),
				address: event.getClientAddress()
			});
		} catch (error) {
			const failure = formFailure(event, form, error);
			return fail(failure.status, { deviceLinkForm: failure.data.form });
		}
		return { deviceLinkForm: form, deviceLinkSent: DEVICE_LINK_SENT };
	}
};
