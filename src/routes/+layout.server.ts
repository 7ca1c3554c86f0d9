import type { LayoutServerLoad } from './$types';

/** What the header needs to know about the visitor: only their name and role, never more. */
export const load: LayoutServerLoad = ({ locals }) => ({
	viewer: locals.user ? { name: locals.user.name, isAdmin: locals.user.isAdmin } : null
});
