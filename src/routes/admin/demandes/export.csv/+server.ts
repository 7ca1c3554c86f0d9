import { leadFiltersQuerySchema } from '$lib/schemas/leads';
import { attachment } from '$lib/server/http/attachment';
import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	const admin = await requireAdmin(event);
	const query = leadFiltersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const csv = await leads.exportCsv(leads.inboxFilters(query), admin);
	const day = new Date().toISOString().slice(0, 10);
	return attachment(csv, `demandes-${day}.csv`, 'text/csv; charset=utf-8');
};
