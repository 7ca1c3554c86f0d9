import { error } from '@sveltejs/kit';
import * as courses from '$lib/server/courses';
import type { Actions, PageServerLoad } from './$types';

/**
 * A reminder's unsubscribe link, opened by a person: a page with one button (a GET changes nothing: mail scanners
 * open links). A mail provider's one-click POST is answered by the server entry (one-click-unsubscribe.ts).
 */
export const load: PageServerLoad = async (event) => {
	event.setHeaders({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
	return {};
};

export const actions: Actions = {
	default: async (event) => {
		await event.request.arrayBuffer();
		if (!(await courses.unsubscribeFromReminders(event.params.token)))
			error(404, 'Ce lien de désinscription est inconnu : désactivez les rappels depuis votre profil.');
		return { done: true };
	}
};
