import * as system from '$lib/server/system';
import type { LayoutServerLoad } from './$types';

/** What the header needs: the visitor's name and role only, never more, and the site's mode (its pages). */
export const load: LayoutServerLoad = ({ locals }) => {
	// A page of the other site mode never gets here: hooks.server.ts (siteModeGate) answers 404 for it.
	return {
		viewer: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null,
		siteMode: system.siteMode()
	};
};
