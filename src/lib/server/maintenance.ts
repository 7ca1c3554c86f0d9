/** Housekeeping that runs on every instance: each task is idempotent, so instances need not coordinate. */
import * as auth from './auth';
import { db } from './db';
import * as rateLimit from './http/rate-limit';
import { onShutdown } from './lifecycle';
import { log } from './log';

const HOUR_MS = 60 * 60 * 1000;

export async function runMaintenance(): Promise<void> {
	const sessions = await auth.purgeExpiredSessions(db);
	const counters = await rateLimit.purgeExpired(db);
	if (sessions || counters)
		log.info('maintenance', { expiredSessions: sessions, expiredRateLimits: counters });
}

export function startMaintenance(): void {
	const run = () => runMaintenance().catch((error) => log.error('maintenance failed', { error }));
	void run();
	const timer = setInterval(run, HOUR_MS);
	timer.unref();
	onShutdown(() => clearInterval(timer));
}
