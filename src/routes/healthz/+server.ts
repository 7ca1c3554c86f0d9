import { json } from '@sveltejs/kit';
import { isHealthy } from '$lib/server/db';
import { problem } from '$lib/server/http/problem';

export async function GET() {
	if (await isHealthy()) return json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
	return problem(503, 'Base de données injoignable', { headers: { 'cache-control': 'no-store' } });
}
