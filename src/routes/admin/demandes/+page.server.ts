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
		leads.inbox(tab, { kind, from, to, notifyFailed }, query.page ?? 1),
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
		pagination: { total: inbox.total, page: inbox.page, pages: inbox.pages, pageSize: inbox.pageSize },
		query: event.url.search,
		filters: query,
		retention: retention ? { at: retention.at.toISOString(), detail: retention.detail } : null,
		retentionDays: leads.retentionDays()
	};
};

// Each spelled out with its guard (tests/static/route-guards.test.ts reads them); the work is shared.
export const actions: Actions = {
	handled: async (event) => {
		await requireAdmin(event);
		return leadActions.handled(event);
	},
	unhandled: async (event) => {
		await requireAdmin(event);
		return leadActions.unhandled(event);
	},
	notSpam: async (event) => {
		await requireAdmin(event);
		return leadActions.notSpam(event);
	},
	resend: async (event) => {
		await requireAdmin(event);
		return leadActions.resend(event);
	},
	delete: async (event) => {
		await requireAdmin(event);
		return leadActions.delete(event);
	}
};
