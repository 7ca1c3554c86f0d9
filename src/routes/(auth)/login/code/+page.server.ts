import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { secondFactorSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { ValidationError } from '$lib/server/errors';
import { setFlash } from '$lib/server/http/flash';
import { formFailure } from '$lib/server/http/forms';
import {
	clearPendingSignIn,
	deviceCookieOf,
	enterAfterSecondFactor,
	pendingSignInOf
} from '$lib/server/http/session-cookie';
import type { Actions, PageServerLoad } from './$types';

/** Without a valid pending sign-in (none, used, expired, ended) there is nothing to complete: back to the password. */
function backToPassword(event: Pick<RequestEvent, 'cookies' | 'url'>): never {
	clearPendingSignIn(event.cookies);
	const kept = new URLSearchParams(event.url.searchParams);
	kept.delete('recovery');
	redirect(303, `/login${kept.size ? `?${kept}` : ''}`);
}

export const load: PageServerLoad = async (event) => {
	if (!(await auth.pendingSignInUser(pendingSignInOf(event.cookies)))) backToPassword(event);
	const kept = new URLSearchParams(event.url.searchParams);
	kept.delete('recovery');
	const query = kept.size ? `?${kept}` : '';
	kept.set('recovery', '1');
	return {
		form: await superValidate(zod4(secondFactorSchema)),
		// « Utiliser un code de secours »: the same form, its own field label and keyboard.
		recovery: event.url.searchParams.has('recovery'),
		links: {
			loginHref: `/login${query}`,
			appHref: `/login/code${query}`,
			recoveryHref: `/login/code?${kept}`
		}
	};
};

export const actions: Actions = {
	default: async (event) => {
		const pendingToken = pendingSignInOf(event.cookies);
		if (!pendingToken) backToPassword(event);
		const form = await superValidate(event.request, zod4(secondFactorSchema));
		if (!form.valid) return fail(400, { form });
		let signedIn;
		try {
			signedIn = await auth.completeSignIn(pendingToken, form.data.code, deviceCookieOf(event.cookies), {
				userAgent: event.request.headers.get('user-agent'),
				address: event.getClientAddress()
			});
		} catch (error) {
			form.data.code = '';
			if (error instanceof auth.PendingSignInEndedError) backToPassword(event);
			// One message, beside the button: a wrong code says nothing more (no "fix the fields" on top of it).
			if (error instanceof ValidationError)
				return message(
					form,
					{ type: 'error', text: Object.values(error.fieldErrors).flat().join(' ') },
					{
						status: 400
					}
				);
			return formFailure(event, form, error);
		}
		await enterAfterSecondFactor(event, signedIn);
		if (signedIn.code.method === 'recovery')
			setFlash(event.cookies, 'recovery-code-used', signedIn.code.recoveryCodesLeft);
		redirect(303, auth.afterSignIn(signedIn.proof.user, event.url.searchParams.get('redirectTo')));
	}
};
