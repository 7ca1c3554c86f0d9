import { redirect } from '@sveltejs/kit';
import * as auth from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

// Signing out is a POST (a link or an image could otherwise sign people out); a GET just goes home.
export const load: PageServerLoad = () => redirect(303, '/');

export const actions: Actions = {
	default: async (event) => {
		await auth.signOut(event);
		redirect(303, '/');
	}
};
