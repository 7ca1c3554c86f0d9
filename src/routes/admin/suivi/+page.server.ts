import { requireAdmin } from '$lib/server/http/guards';
import * as insights from '$lib/server/insights';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const only = event.url.searchParams.get('filtre') === 'bloques' ? 'stuck' : 'all';
	const report = await insights.learners();
	return {
		only,
		report: {
			...report,
			learners: only === 'stuck' ? report.learners.filter((l) => l.stuck) : report.learners
		},
		stuckAfterDays: insights.STUCK_AFTER_DAYS
	};
};
