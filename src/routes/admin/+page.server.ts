import * as auth from '$lib/server/auth';
import * as backup from '$lib/server/backup';
import * as candidatures from '$lib/server/candidatures';
import * as courses from '$lib/server/courses';
import { requireAdmin } from '$lib/server/http/guards';
import * as images from '$lib/server/images';
import * as insights from '$lib/server/insights';
import * as leads from '$lib/server/leads';
import type { PageServerLoad } from './$types';

const forPage = (lead: {
	id: string;
	name: string;
	kind: string;
	city: string | null;
	createdAt: Date;
	notifyError: string | null;
}) => ({
	id: lead.id,
	name: lead.name,
	kind: lead.kind,
	city: lead.city,
	createdAt: lead.createdAt.toISOString(),
	notifyError: lead.notifyError
});

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const period = insights.periodOf(event.url.searchParams);
	const [
		users,
		openLeads,
		failedNotifications,
		byStatus,
		modules,
		overview,
		stock,
		backups,
		unprotected,
		figures,
		stuckLearners
	] = await Promise.all([
		auth.countUsers(),
		leads.countOpen(),
		leads.countFailedNotifications(),
		candidatures.countByStatus(),
		courses.count(),
		leads.overview(),
		images.slotsOnStock(),
		backup.staleness(),
		auth.adminsWithoutSecondFactor(),
		insights.figures(period),
		insights.countStuckLearners()
	]);
	return {
		period,
		figures,
		adminsWithoutSecondFactor: unprotected,
		counts: { users, openLeads, failedNotifications, candidatures: byStatus, modules, stuckLearners },
		latestLeads: overview.latest.map(forPage),
		failedLeads: overview.failed.map(forPage),
		stockSlots: stock,
		backups: { stale: backups.stale, lastGood: backups.lastGood?.toISOString() ?? null }
	};
};
