import { fail, redirect } from '@sveltejs/kit';
import * as auth from '$lib/server/auth';
import { setFlash } from '$lib/server/http/flash';
import { setDeviceCookie } from '$lib/server/http/session-cookie';
import type { Actions } from './$types';

/**
 * The device link (issue "Trust, part 2", point 3). Opening it changes nothing (mail scanners open links): the page
 * asks for a click, which posts here, spends the link and makes this browser a known one for the account. It signs
 * nobody in: the password, and the code with a second factor, are asked next.
 */
export const actions: Actions = {
	default: async (event) => {
		const known = await auth.useDeviceLink(event.params.token);
		if (!known) return fail(410, { error: 'Ce lien a déjà servi, a expiré ou n’est pas valable.' });
		setDeviceCookie(event.cookies, known.deviceToken);
		setFlash(event.cookies, 'device-known');
		redirect(303, '/login');
	}
};
