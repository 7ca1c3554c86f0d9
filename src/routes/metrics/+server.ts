import { error } from '@sveltejs/kit';
import * as system from '$lib/server/system';
import type { RequestHandler } from './$types';

/**
 * Prometheus' scrape (docs/monitoring/README.md, « The series »): 404 unless METRICS_TOKEN is set, then 401 without it as a bearer
 * token. Never cached; the audience counts HTML pages only, so a scrape is never a visit.
 */
export const GET: RequestHandler = async ({ request }) => {
	const answer = await system.metrics(request.headers.get('authorization'));
	if (answer.status === 404) error(404, 'Not found');
	if (answer.status === 401)
		return new Response('A bearer token is required (METRICS_TOKEN).\n', {
			status: 401,
			headers: {
				'www-authenticate': 'Bearer realm="metrics"',
				'content-type': 'text/plain; charset=utf-8',
				'cache-control': 'no-store'
			}
		});
	return new Response(answer.body, {
		headers: { 'content-type': answer.contentType, 'cache-control': 'no-store' }
	});
};
