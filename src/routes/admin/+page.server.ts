import * as auth from '$lib/server/auth';
import * as backup from '$lib/server/backup';
import * as candidatures from '$lib/server/candidatures';
import * as content from '$lib/server/content';
import * as courses from '$lib/server/courses';
import { requireAdmin } from '$lib/server/http/guards';
import * as images from '$lib/server/images';
import * as insights from '$lib/server/insights';
import * as leads from '$lib/server/leads';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

const forPage = (lead: { id: string; name: string; kind: string; city: string | null; createdAt: Date }) => ({
	id: lead.id,
	name: lead.name,
	kind: lead.kind,
	city: lead.city,
	createdAt: lead.createdAt.toISOString()
});

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const period = insights.periodOf(event.url.searchParams);
	const filter = insights.filterOf(event.url.searchParams);
	const [
		openLeads,
		failedNotifications,
		byStatus,
		latest,
		stock,
		backups,
		unprotected,
		figures,
		stuckLearners,
		staleDrafts,
		scheduled,
		lateQuestions,
		missingSheet
	] = await Promise.all([
		leads.countOpen(),
		leads.countFailedNotifications(),
		candidatures.countByStatus(),
		leads.latest(),
		images.slotsOnStock(),
		backup.staleness(),
		auth.adminsWithoutSecondFactor(),
		insights.figures(period, filter),
		insights.countStuckLearners(),
		content.staleDrafts(),
		content.scheduled(),
		training.countLateQuestions(),
		courses.missingSheet()
	]);
	return {
		period,
		figures,
		adminsWithoutSecondFactor: unprotected,
		counts: {
			openLeads,
			failedNotifications,
			pendingCandidatures: byStatus.pending,
			stuckLearners,
			lateQuestions,
			missingSheet: missingSheet.length
		},
		latestLeads: latest.map(forPage),
		stockSlots: stock,
		// Drafts nobody has touched for a week: finished and published, or dropped.
		staleDrafts: staleDrafts.map((draft) => ({ id: draft.id, label: draft.label, path: draft.path })),
		// What goes live by itself, soonest first.
		scheduled: scheduled.map((entry) => ({
			id: entry.id,
			label: entry.title || entry.path || entry.id,
			at: entry.at!.toISOString(),
			by: entry.by
		})),
		backups: { stale: backups.stale, lastGood: backups.lastGood?.toISOString() ?? null }
	};
};
