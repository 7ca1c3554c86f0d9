import { attachment } from '$lib/server/http/attachment';
import { requireAdmin } from '$lib/server/http/guards';
import * as training from '$lib/server/training';
import type { RequestHandler } from './$types';

/** Every answer to the satisfaction survey, hot and cold, one row each (formulas defused). */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	const day = new Date().toISOString().slice(0, 10);
	return attachment(training.satisfactionCsv(), `satisfaction-${day}.csv`, 'text/csv; charset=utf-8');
};
