import { requireUser } from '$lib/server/http/guards';
import * as memberships from '$lib/server/memberships';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const { access, membership } = await memberships.accessOf(user);
	return {
		access,
		membership: membership
			? { status: membership.status, currentPeriodEnd: membership.currentPeriodEnd?.toISOString() ?? null }
			: null
	};
};
