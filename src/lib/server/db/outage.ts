/**
 * The database's outages as the log tells them (issue "Durable and upgradable", point 5): one `warn` line when it
 * is lost, one `info` line with the outage's length when it answers again — not a line per request, nor per
 * retry. While it is lost, a probe (`select 1`, every two seconds, one at a time) finds when it is back, whether or
 * not requests come.
 */
import { sql } from 'drizzle-orm';
import { log } from '../log';
import { db } from './index';

const PROBE_INTERVAL_MS = 2_000;

let lostSince: number | null = null;
let probe: ReturnType<typeof setInterval> | null = null;
let probing = false;

/** Called wherever an outage is answered (503): logs the loss once, and starts looking for the way back. */
export function databaseLost(error: unknown, where: Record<string, unknown> = {}): void {
	if (lostSince !== null) return;
	lostSince = Date.now();
	log.warn('database unavailable', { ...where, error });
	probe = setInterval(() => void lookForTheWayBack(), PROBE_INTERVAL_MS);
	probe.unref();
}

async function lookForTheWayBack(): Promise<void> {
	if (probing || lostSince === null) return;
	probing = true;
	try {
		await db.execute(sql`select 1`);
		log.info('database back', { outageMs: Date.now() - lostSince });
		lostSince = null;
		if (probe) clearInterval(probe);
		probe = null;
	} catch {
		// Still down: the next probe tries again; nothing more to say.
	} finally {
		probing = false;
	}
}

/** Whether an outage is going on (for tests and readiness). */
export const databaseIsLost = (): boolean => lostSince !== null;
