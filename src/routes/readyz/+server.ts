import { json } from '@sveltejs/kit';
import * as system from '$lib/server/system';

/** Readiness for a load balancer or an orchestrator: 200 when every part answers, 503 naming the part down. */
export async function GET() {
	const { ready, checks, reason } = await system.readiness();
	return json(
		{ status: ready ? 'ready' : 'not ready', checks, ...(reason && { reason }) },
		{ status: ready ? 200 : 503, headers: { 'cache-control': 'no-store' } }
	);
}
