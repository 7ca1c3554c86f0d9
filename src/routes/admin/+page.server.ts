import * as auth from '$lib/server/auth';
import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	// Candidatures and modules join these counts when their issues add the tables.
	const [users, openLeads] = await Promise.all([auth.countUsers(), leads.countOpen()]);
	return { counts: { users, openLeads } };
};
