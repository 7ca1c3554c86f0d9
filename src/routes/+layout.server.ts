import { takeFlash } from '$lib/server/http/flash';
import { company } from '$lib/company';
import * as content from '$lib/server/content';
import * as system from '$lib/server/system';
import type { LayoutServerLoad } from './$types';

/**
 * A page is sent without SvelteKit's client unless its route asks for it (`export const csr = true`: the
 * admin, the members' area, the candidature wizard, the account links). Content pages and the public forms need
 * none: a form posts to its action and the server answers with the page, errors at the fields or the
 * confirmation at its anchor. No hydration, nothing on a phone's main thread — the 404 page included, which
 * only this layout's options govern. What a script does better comes from one small deferred file per mode
 * (`$lib/platform/enhance.js` through StaticPageScript, `$lib/showcase/enhance.js`), and nothing depends on it.
 */
export const csr = false;

/**
 * What the header needs: the visitor's name and role only, never more, the site's mode (its pages), whether the
 * blog has articles, and the
 * message a redirect left for this page (src/lib/server/http/flash.ts).
 */
export const load: LayoutServerLoad = async ({ locals, cookies }) => {
	// A page of the other site mode never gets here: hooks.server.ts (siteModeGate) answers 404 for it.
	const siteMode = system.siteMode();
	return {
		viewer: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null,
		siteMode,
		// The agency's blog is in the header once it has an article (showcase mode lists its own in its pages).
		blog: siteMode === 'platform' && (await content.blogLinked()),
		// For the pages that run in the browser (sent with them only): the live company file, not the bundle's seed.
		company,
		flash: takeFlash(cookies)
	};
};
