import * as auth from '$lib/server/auth';
import * as candidatures from '$lib/server/candidatures';
import * as courses from '$lib/server/courses';
import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const [users, openLeads, byStatus, modules] = await Promise.all([
		auth.countUsers(),
		leads.countOpen(),
		candidatures.countByStatus(),
		courses.count()
	]);
	return { counts: { users, openLeads, candidatures: byStatus, modules } };
};
