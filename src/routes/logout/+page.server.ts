import { redirect } from '@sveltejs/kit';
import { signOut } from '$lib/server/http/session-cookie';
import type { Actions, PageServerLoad } from './$types';

// Signing out is a POST (a link or an image could otherwise sign people out); a GET just goes home.
export const load: PageServerLoad = () => redirect(303, '/');

export const actions: Actions = {
	default: async (event) => {
		await signOut(event);
		redirect(303, '/');
	}
};
