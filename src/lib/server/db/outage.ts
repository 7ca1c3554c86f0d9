/**
 * The database's outages as the log tells them (issue "Durable and upgradable", point 5): one `warn` line when it
 * is lost, one `info` line with the outage's length when it answers again — not a line per request, nor per
 * retry. While it is lost, a probe (`select 1`, every two seconds, one at a time) finds when it is back, whether or
 * not requests come.
 */
import { sql } from 'drizzle-orm';
import { log } from '../log';
import { db } from './index';
import { isDiskFull } from './unavailable';

const PROBE_INTERVAL_MS = 2_000;

let lostSince: number | null = null;
let probe: ReturnType<typeof setInterval> | null = null;
let probing = false;

/**
 * A full disk is its own outage: the database still reads (a probe's `select 1` would call it back at once) but
 * cannot write. One `warn` when it begins; it is over once no write has failed so for DISK_FULL_QUIET_MS (the next
 * failure after that is a new episode, said again). Readiness says « espace disque plein » meanwhile.
 */
const DISK_FULL_QUIET_MS = 60_000;
let diskFullSince: number | null = null;
let diskFullLastAt = 0;

function diskFull(error: unknown, where: Record<string, unknown>): void {
	const now = Date.now();
	if (diskFullSince === null || now - diskFullLastAt > DISK_FULL_QUIET_MS) {
		diskFullSince = now;
		log.warn('disk full: the database cannot write', {
			...where,
			error,
			hint: 'free space where the database writes (DATA_DIR for the embedded one); /readyz says when it is back'
		});
	}
	diskFullLastAt = now;
}

/** Whether a write failed for want of space within the last minute (readiness). */
export const diskRecentlyFull = (): boolean =>
	diskFullSince !== null && Date.now() - diskFullLastAt <= DISK_FULL_QUIET_MS;

/** Called wherever an outage is answered (503): logs the loss once, and starts looking for the way back. */
export function databaseLost(error: unknown, where: Record<string, unknown> = {}): void {
	if (isDiskFull(error)) return diskFull(error, where);
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
