/**
 * Which of the run's shared servers (global-setup.ts) this worker uses. Playwright loads the config in every
 * worker with TEST_PARALLEL_INDEX set, so playwright.config.ts calls this before any test file reads
 * E2E_BASE_URL, E2E_DATA_DIR or E2E_SERVER_LOG.
 */
export interface SharedServer {
	url: string;
	dataDir: string;
	logFile: string;
	databaseUrl: string | null;
}

export function useWorkersSharedServer(env: NodeJS.ProcessEnv = process.env): void {
	if (!env.E2E_SHARED_SERVERS || env.TEST_PARALLEL_INDEX === undefined) return;
	const servers = JSON.parse(env.E2E_SHARED_SERVERS) as SharedServer[];
	const mine = servers[Number(env.TEST_PARALLEL_INDEX) % servers.length]!;
	env.E2E_BASE_URL = mine.url;
	env.E2E_DATA_DIR = mine.dataDir;
	env.E2E_SERVER_LOG = mine.logFile;
	if (mine.databaseUrl) env.E2E_DATABASE_URL = mine.databaseUrl;
}
