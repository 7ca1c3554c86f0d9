import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { secondFactorSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { formFailure } from '$lib/server/http/forms';
import {
	clearPendingSignIn,
	pendingSignInOf,
	setDeviceCookie,
	signInAndSetCookie
} from '$lib/server/http/session-cookie';
import type { Actions, PageServerLoad } from './$types';

/** Without a valid pending sign-in (none, expired, forged) there is nothing to complete: back to the password. */
function pendingUser(event: Pick<RequestEvent, 'cookies' | 'url'>): string {
	const userId = auth.pendingUserOf(pendingSignInOf(event.cookies));
	if (!userId) redirect(303, `/login${event.url.search}`);
	return userId;
}

export const load: PageServerLoad = async (event) => {
	pendingUser(event);
	return { form: await superValidate(zod4(secondFactorSchema)) };
};

export const actions: Actions = {
	default: async (event) => {
		const userId = pendingUser(event);
		const form = await superValidate(event.request, zod4(secondFactorSchema));
		if (!form.valid) return fail(400, { form });
		let signedIn;
		try {
			signedIn = await auth.completeSignIn(userId, form.data.code);
		} catch (error) {
			form.data.code = '';
			return formFailure(event, form, error);
		}
		clearPendingSignIn(event.cookies);
		await signInAndSetCookie(event, signedIn.user.id);
		setDeviceCookie(event.cookies, signedIn.deviceToken);
		redirect(303, auth.afterSignIn(signedIn.user, event.url.searchParams.get('redirectTo')));
	}
};
