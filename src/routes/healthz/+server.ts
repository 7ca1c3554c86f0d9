import { json } from '@sveltejs/kit';
import { problem } from '$lib/server/http/problem';
import * as system from '$lib/server/system';

/** Liveness: the process serves and its database is not known down — answered at once, whatever a backup does. */
export async function GET() {
	if (await system.alive())
		return json({ status: 'ok', ...system.release() }, { headers: { 'cache-control': 'no-store' } });
	return problem(503, 'Base de données injoignable', { headers: { 'cache-control': 'no-store' } });
}
