import { redirect } from '@sveltejs/kit';
import { candidatureFiltersQuerySchema } from '$lib/schemas/candidature';
import * as candidatures from '$lib/server/candidatures';
import { requireAdmin } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const query = candidatureFiltersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	// Notifications sent before candidatures had their own page linked to `?id=`: they still lead to it.
	if (query.id) redirect(308, `/admin/candidatures/${query.id}`);
	const filters = candidatures.filtersOf(query);
	const [list, counts] = await Promise.all([
		candidatures.list(filters, query.page ?? 1),
		candidatures.countByStatus(filters)
	]);
	return {
		query,
		counts,
		pagination: { total: list.total, page: list.page, pages: list.pages, pageSize: list.pageSize },
		candidatures: list.rows.map((c) => ({
			id: c.id,
			firstName: c.firstName,
			lastName: c.lastName,
			email: c.email,
			company: c.company,
			trade: c.trade,
			postalCode: c.postalCode,
			city: c.city,
			status: c.status,
			createdAt: c.createdAt.toISOString(),
			decidedAt: c.decidedAt?.toISOString() ?? null,
			notificationFailed: c.notifyError !== null && c.notifiedAt === null
		}))
	};
};
