import { auditQuerySchema } from '$lib/schemas/audit';
import * as audit from '$lib/server/audit';
import { requireAdmin } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const query = auditQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const [trail, actors] = await Promise.all([audit.page(query), audit.actors()]);
	return {
		query,
		actors,
		events: trail.events.map((e) => ({ ...e, at: e.at.toISOString() })),
		pagination: { total: trail.total, page: trail.page, pages: trail.pages, pageSize: trail.pageSize }
	};
};
