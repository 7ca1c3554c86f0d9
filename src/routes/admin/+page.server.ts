import * as auth from '$lib/server/auth';
import * as candidatures from '$lib/server/candidatures';
import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	// Modules join these counts with their issue.
	const [users, openLeads, byStatus] = await Promise.all([
		auth.countUsers(),
		leads.countOpen(),
		candidatures.countByStatus()
	]);
	return { counts: { users, openLeads, candidatures: byStatus } };
};
