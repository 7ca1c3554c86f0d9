/** The service's own state, for operations and for every page: whether its database answers, which site it is. */
import { appDeps } from '../app';
import { config } from '../config';
import { isHealthy } from '../db';
import type { Storage } from '../storage';

export const databaseAnswers = () => isHealthy(appDeps().db);

export type PartState = 'ok' | 'down' | 'unused';
export interface Readiness {
	ready: boolean;
	/** Each part by name, with no detail that could hold a secret (an endpoint, a key, an error text). */
	checks: { database: PartState; storage: PartState };
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
	const [database, storage] = await Promise.all([databaseAnswers(), usesStorage ? storageAnswers() : null]);
	const checks = {
		database: database ? 'ok' : 'down',
		storage: storage === null ? 'unused' : storage ? 'ok' : 'down'
	} as const;
	return { ready: checks.database === 'ok' && checks.storage !== 'down', checks };
}

/** CONTRACT §2 `SITE_MODE`: which pages exist (src/lib/pages/registry.ts). */
export const siteMode = () => config.siteMode;

/** The site's public address (ORIGIN), for absolute links. */
export const origin = () => config.origin;

/** The running release: version and commit (/healthz, the start line). */
export { appRelease as release } from '../version';
