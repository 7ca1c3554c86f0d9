import { error } from '@sveltejs/kit';
import { requireAdmin } from '$lib/server/http/guards';
import * as insights from '$lib/server/insights';
import type { PageServerLoad } from './$types';

/** One member's way through the course, for the trainer (issue « Experience, part 4 », point 7). */
export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const detail = await insights.learner(event.params.id);
	if (!detail) error(404, 'Aucun membre ne porte cet identifiant.');
	return { detail, stuckAfterDays: insights.STUCK_AFTER_DAYS };
};
