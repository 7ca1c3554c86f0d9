import * as auth from '$lib/server/auth';
import { db } from '$lib/server/db';
import * as leads from '$lib/server/leads';
import { filtersFrom } from '$lib/server/leads/filters';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => {
	await auth.requireAdmin(event);
	const csv = await leads.exportCsv(db, filtersFrom(event.url.searchParams));
	const day = new Date().toISOString().slice(0, 10);
	return new Response(csv, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="demandes-${day}.csv"`,
			'cache-control': 'no-store'
		}
	});
};
