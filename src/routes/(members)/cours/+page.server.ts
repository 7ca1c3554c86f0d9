import { requireUser } from '$lib/server/http/guards';
import * as courses from '$lib/server/courses';
import * as memberships from '$lib/server/memberships';
import type { PageServerLoad } from './$types';

/** The course modules in order, with what is done: the sub-menu's "Cours". */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [{ access }, progress] = await Promise.all([memberships.accessOf(user), courses.progressOf(user.id)]);
	return { allowed: access.allowed, progress };
};
