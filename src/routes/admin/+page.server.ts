import * as auth from '$lib/server/auth';
import { db } from '$lib/server/db';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	// Candidatures and modules join these counts when their issues add the tables.
	return { counts: { users: await auth.countUsers(db) } };
};
