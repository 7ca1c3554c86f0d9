import { learnersQuerySchema } from '$lib/schemas/training';
import { requireAdmin } from '$lib/server/http/guards';
import * as insights from '$lib/server/insights';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const query = learnersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const only = query.filtre === 'bloques' ? 'stuck' : 'all';
	const { learners, pagination, ...report } = await insights.learnersList({
		search: query.q || undefined,
		stuckOnly: only === 'stuck',
		page: query.page ?? 1
	});
	const questions = await training.questionFigures(learners.map((l) => l.id));
	return {
		/** Per member of the page: questions asked to the trainer, and the average time to a first answer (hours). */
		questions: Object.fromEntries(
			learners.flatMap((l) => {
				const q = questions.get(l.id);
				if (!q) return [];
				const hours = q.firstAnswerSeconds === null ? null : Math.round(q.firstAnswerSeconds / 360) / 10;
				return [[l.id, { count: q.questions, firstAnswerHours: hours }]];
			})
		),
		only,
		search: query.q ?? '',
		report: { ...report, learners },
		pagination,
		stuckAfterDays: insights.STUCK_AFTER_DAYS
	};
};
