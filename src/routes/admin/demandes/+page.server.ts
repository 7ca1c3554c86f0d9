import { leadFiltersQuerySchema } from '$lib/schemas/leads';
import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import { leadActions } from './lead-actions.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const query = leadFiltersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const tab = leads.tabOf(query);
	const { kind, from, to, notifyFailed } = leads.filtersOf(query);
	const [inbox, retention] = await Promise.all([
		leads.inbox(tab, { kind, from, to, notifyFailed }, leads.positionOf(query)),
		leads.lastRetentionRun()
	]);
	return {
		tab,
		leads: inbox.leads.map((l) => ({
			...l,
			createdAt: l.createdAt.toISOString(),
			notifiedAt: l.notifiedAt?.toISOString() ?? null
		})),
		counts: inbox.counts,
		countBound: inbox.bound,
		position: {
			first: inbox.first,
			total: inbox.total,
			bound: inbox.bound,
			newer: inbox.newer && leads.cursorParam(inbox.newer),
			older: inbox.older && leads.cursorParam(inbox.older)
		},
		query: event.url.search,
		filters: query,
		retention: retention ? { at: retention.at.toISOString(), detail: retention.detail } : null,
		retentionDays: leads.retentionDays()
	};
};

// The inbox's actions on one lead, each guarded where it is written (tests/static/route-guards.test.ts follows them).
export const actions: Actions = leadActions;
