/** The service's own state, for operations and for every page: whether its database answers, which site it is. */
import { timingSafeEqual, createHash } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { appDeps } from '../app';
import * as backup from '../backup';
import { config } from '../config';
import { isHealthy } from '../db';
import { diskRecentlyFull } from '../db/outage';
import { scrape } from '../metrics';
import type { Storage } from '../storage';

export const databaseAnswers = () => isHealthy(appDeps().db);

export type PartState = 'ok' | 'down' | 'unused' | 'full';
export interface Readiness {
	ready: boolean;
	/** Each part by name, with no detail that could hold a secret (an endpoint, a key, an error text). */
	checks: { database: PartState; storage: PartState; disk: PartState };
	/** Why it is not ready, in the words the pages use, when a full disk is why. */
	reason?: string;
}

/** Below this, DATA_DIR's disk is full for readiness: the embedded database and uploads write there. */
const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** DATA_DIR's file system: `full` under MIN_FREE_BYTES free (for this process's user). */
/** The filesystem DATA_DIR is on: what this process may still write, and its size, in bytes. */
async function dataDirSpace(dataDir = config.dataDir): Promise<{ free: number; size: number }> {
	const stats = await statfs(dataDir);
	return { free: stats.bavail * stats.bsize, size: stats.blocks * stats.bsize };
}

async function diskState(): Promise<PartState> {
	try {
		return (await dataDirSpace()).free < MIN_FREE_BYTES ? 'full' : 'ok';
	} catch {
		// Not made yet, or not ours to look at: nothing to say.
		return 'ok';
	}
}

const STORAGE_TIMEOUT_MS = 3000;

/** Whether the bucket answers within the time limit; never throws. */
export async function storageAnswers(target: Storage = appDeps().storage): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<false>(
		(resolve) => (timer = setTimeout(() => resolve(false), STORAGE_TIMEOUT_MS))
	);
	try {
		return await Promise.race([target.ping().then(() => true), timeout]);
	} catch {
		return false;
	} finally {
		clearTimeout(timer);
	}
}

/**
 * Readiness (`/readyz`), unlike liveness (`/healthz`, the database only): every part a request may need. Showcase
 * mode keeps no photos in a bucket, so its storage is unused.
 */
export async function readiness(): Promise<Readiness> {
	const usesStorage = config.siteMode !== 'showcase';
	const [database, storage, disk] = await Promise.all([
		databaseAnswers(),
		usesStorage ? storageAnswers() : null,
		diskState()
	]);
	const checks = {
		// A database that reads but cannot write (its disk full, said by its last failed write) is not ready. The
		// embedded one writes to DATA_DIR, whose free space says at once when that is over.
		database: !database
			? 'down'
			: diskRecentlyFull() && (config.databaseUrl || disk === 'full')
				? 'full'
				: 'ok',
		storage: storage === null ? 'unused' : storage ? 'ok' : 'down',
		disk
	} as const;
	const ready = checks.database === 'ok' && checks.storage !== 'down' && checks.disk === 'ok';
	const full = checks.database === 'full' || checks.disk === 'full';
	return { ready, checks, ...(full && { reason: 'espace disque plein' }) };
}

/** CONTRACT §2 `SITE_MODE`: which pages exist (src/lib/pages/registry.ts). */
export const siteMode = () => config.siteMode;

/** The site's public address (ORIGIN), for absolute links. */
export const origin = () => config.origin;

/** The running release: version and commit (/healthz, the start line). */
export { appRelease as release } from '../version';

/** What `GET /metrics` answers: off (404) without METRICS_TOKEN, 401 without the right bearer token, else the text. */
export type MetricsAnswer =
	{ status: 404 } | { status: 401 } | { status: 200; contentType: string; body: string };

/** Both sides hashed first: the comparison takes the same time whatever the length or the first wrong byte. */
const sameToken = (given: string, expected: string) =>
	timingSafeEqual(
		createHash('sha256').update(given).digest(),
		createHash('sha256').update(expected).digest()
	);

export async function metrics(authorization: string | null): Promise<MetricsAnswer> {
	const token = appDeps().config.metricsToken;
	if (!token) return { status: 404 };
	const given = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
	if (!given || !sameToken(given, token)) return { status: 401 };
	const { contentType, body } = await scrape({
		pingDatabase: async () => {
			if (!(await databaseAnswers())) throw new Error('the database did not answer');
		},
		lastBackup: backup.lastGood,
		dataDirDisk: () => dataDirSpace(appDeps().config.dataDir)
	});
	return { status: 200, contentType, body };
}
