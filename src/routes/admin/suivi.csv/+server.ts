import { attachment } from '$lib/server/http/attachment';
import { requireAdmin } from '$lib/server/http/guards';
import * as insights from '$lib/server/insights';
import type { RequestHandler } from './$types';

/** The members' follow-up (/admin/suivi) as a spreadsheet: one row per member. */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	const day = new Date().toISOString().slice(0, 10);
	return attachment(insights.learnersCsv(), `suivi-des-membres-${day}.csv`, 'text/csv; charset=utf-8');
};
