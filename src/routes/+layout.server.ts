import * as system from '$lib/server/system';
import type { LayoutServerLoad } from './$types';

/**
 * Showcase pages are sent without SvelteKit's client: they are content, served from the page cache, and the
 * few things that need JavaScript (cookie banner, map, gallery) come from one small deferred script
 * ($lib/showcase/enhance.js). No hydration, nothing on a phone's main thread. Read once, at start-up: the mode
 * does not change while the process runs.
 */
export const csr = system.siteMode() !== 'showcase';

/** What the header needs: the visitor's name and role only, never more, and the site's mode (its pages). */
export const load: LayoutServerLoad = ({ locals }) => {
	// A page of the other site mode never gets here: hooks.server.ts (siteModeGate) answers 404 for it.
	return {
		viewer: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null,
		siteMode: system.siteMode()
	};
};
