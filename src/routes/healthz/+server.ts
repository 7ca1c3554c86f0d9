import { json } from '@sveltejs/kit';
import * as system from '$lib/server/system';

/**
 * Liveness: the process answers, and that is all it says. A database outage is no reason to restart the process
 * (a liveness probe would restart every instance for the database's fault, and each restart would wait on it
 * again): that signal is readiness's (`/readyz`), which takes the instance out of the load balancer's rotation.
 */
export function GET() {
	return json({ status: 'ok', ...system.release() }, { headers: { 'cache-control': 'no-store' } });
}
