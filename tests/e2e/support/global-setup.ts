import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { startServer } from './server';

/** One production server for the whole e2e run, on a fresh data directory and (with DATABASE_URL) a fresh database. */
export default async function globalSetup() {
	const database = serverUrl ? await createEmptyPostgresDatabase() : null;
	const server = await startServer(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' });
	process.env.E2E_BASE_URL = server.url;
	process.env.E2E_DATA_DIR = server.dataDir;
	process.env.E2E_SERVER_LOG = server.logFile;
	if (database) process.env.E2E_DATABASE_URL = database.url;
	return async () => {
		const code = await server.stop();
		await database?.drop();
		if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM:\n${server.output()}`);
	};
}
