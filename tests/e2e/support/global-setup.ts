import type { FullConfig } from '@playwright/test';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { makeDatabaseTemplate, startServer } from './server';
import type { SharedServer } from './shared-server';

/**
 * One production server per Playwright worker, each on a fresh data directory and (with DATABASE_URL) a fresh
 * database: the files one worker runs share its server (its admin, its rate limits, its counters) and never see
 * the other worker's. playwright.config.ts hands each worker its own (E2E_BASE_URL and the rest).
 */
export default async function globalSetup(config: FullConfig) {
	makeDatabaseTemplate();
	const started = await Promise.all(
		Array.from({ length: config.workers }, async () => {
			const database = serverUrl ? await createEmptyPostgresDatabase() : null;
			const server = await startServer(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' });
			return { server, database };
		})
	);
	const shared: SharedServer[] = started.map(({ server, database }) => ({
		url: server.url,
		dataDir: server.dataDir,
		logFile: server.logFile,
		databaseUrl: database?.url ?? null
	}));
	process.env.E2E_SHARED_SERVERS = JSON.stringify(shared);
	return async () => {
		const codes = await Promise.all(started.map(({ server }) => server.stop()));
		await Promise.all(started.map(({ database }) => database?.drop()));
		const failed = codes.findIndex((code) => code !== 0);
		if (failed !== -1)
			throw new Error(`server exited with ${codes[failed]} on SIGTERM:\n${started[failed]!.server.output()}`);
	};
}
