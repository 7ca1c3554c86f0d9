import { error } from '@sveltejs/kit';
import { routeExistsIn } from '$lib/pages/modes';
import * as system from '$lib/server/system';
import type { LayoutServerLoad } from './$types';

/** What the header needs: the visitor's name and role only, never more, and the site's mode (its pages). */
export const load: LayoutServerLoad = ({ locals, route }) => {
	// A page of the other site mode does not exist (the hook refuses its actions and API routes).
	if (!routeExistsIn(route.id, system.siteMode())) error(404, 'Page introuvable');
	return {
		viewer: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null,
		siteMode: system.siteMode()
	};
};
