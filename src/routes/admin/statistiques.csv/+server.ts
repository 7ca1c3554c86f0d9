import { attachment } from '$lib/server/http/attachment';
import { requireAdmin } from '$lib/server/http/guards';
import * as insights from '$lib/server/insights';
import type { RequestHandler } from './$types';

/** The dashboard’s daily figures (day, page views, visitors) over the period and filter it shows. */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	const period = insights.periodOf(event.url.searchParams);
	const day = new Date().toISOString().slice(0, 10);
	return attachment(
		await insights.dailyCsv(period, insights.filterOf(event.url.searchParams)),
		`statistiques-${period}-${day}.csv`,
		'text/csv; charset=utf-8'
	);
};
