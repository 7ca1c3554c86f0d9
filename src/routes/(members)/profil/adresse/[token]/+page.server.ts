import { fail, redirect } from '@sveltejs/kit';
import * as auth from '$lib/server/auth';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import type { Actions, PageServerLoad } from './$types';

/**
 * The link sent to a new address. Opening it changes nothing (mail scanners open links): the page asks for a
 * click, which posts here. Only the account that asked may use it.
 */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	return await auth.emailChangeState(event.params.token, user.id);
};

export const actions: Actions = {
	default: async (event) => {
		const user = requireUser(event);
		try {
			await auth.confirmEmailChange(event.params.token, user.id, {
				userAgent: event.request.headers.get('user-agent'),
				address: event.getClientAddress()
			});
		} catch (error) {
			if (error instanceof AppError) return fail(error.status, { error: error.message });
			throw error;
		}
		redirect(303, '/profil?adresse=changee');
	}
};
