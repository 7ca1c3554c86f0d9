import { error } from '@sveltejs/kit';
import { requireAdmin } from '$lib/server/http/guards';
import * as courses from '$lib/server/courses';
import * as insights from '$lib/server/insights';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

/** One member's way through the course, for the trainer (issue « Experience, part 4 », point 7). */
export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const detail = await insights.learner(event.params.id);
	if (!detail) error(404, 'Aucun membre ne porte cet identifiant.');
	// What the training's proof needs beside the progress: where they started, what they asked (point 3, 2).
	const [positioning, threads] = await Promise.all([
		courses.positioningReport(event.params.id),
		training.threadsOf(event.params.id)
	]);
	return {
		detail,
		stuckAfterDays: insights.STUCK_AFTER_DAYS,
		positioning: positioning && {
			answeredAt: positioning.answeredAt.toISOString(),
			questions: positioning.questions
		},
		threads: threads.map((t) => ({
			id: t.id,
			module: t.moduleTitle,
			createdAt: t.createdAt.toISOString(),
			firstAnsweredAt: t.firstAnsweredAt?.toISOString() ?? null,
			awaiting: !!t.awaitingSince,
			late: t.late
		}))
	};
};
