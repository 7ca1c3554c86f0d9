import { requireAdmin } from '$lib/server/http/guards';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

/** What learners said, hot and cold (Qualiopi's indicator 30): averages, response rates, comments. */
export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const results = await training.satisfactionResults();
	return {
		...results,
		comments: results.comments.map((c) => ({ ...c, at: c.at.toISOString() }))
	};
};
