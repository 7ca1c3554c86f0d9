import { requireAdmin } from '$lib/server/http/guards';
import * as insights from '$lib/server/insights';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const only = event.url.searchParams.get('filtre') === 'bloques' ? 'stuck' : 'all';
	const [report, questions] = await Promise.all([insights.learners(), training.questionFigures()]);
	return {
		/** Per member: questions asked to the trainer, and the average time to a first answer (hours). */
		questions: Object.fromEntries(
			[...questions].map(([id, q]) => [
				id,
				{
					count: q.questions,
					firstAnswerHours: q.firstAnswerSeconds === null ? null : Math.round(q.firstAnswerSeconds / 360) / 10
				}
			])
		),
		only,
		report: {
			...report,
			learners: only === 'stuck' ? report.learners.filter((l) => l.stuck) : report.learners
		},
		stuckAfterDays: insights.STUCK_AFTER_DAYS
	};
};
