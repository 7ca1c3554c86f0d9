import { requireUser } from '$lib/server/http/guards';
import * as courses from '$lib/server/courses';
import * as memberships from '$lib/server/memberships';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [{ access, membership }, progress] = await Promise.all([
		memberships.accessOf(user),
		courses.progressOf(user.id)
	]);
	return {
		access,
		progress,
		membership: membership
			? { status: membership.status, currentPeriodEnd: membership.currentPeriodEnd?.toISOString() ?? null }
			: null
	};
};
