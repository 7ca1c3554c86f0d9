/** `npm run db:migrate`: applies the committed migrations to the configured database and exits. */
import path from 'node:path';
import { ConfigError, loadConfig } from '../lib/server/config';
import { openDatabase } from '../lib/server/db';
import { restrictNewFiles } from '../lib/server/private-files';
import { startWithCommandSettings } from './heap';

startWithCommandSettings();
restrictNewFiles();
try {
	const config = loadConfig();
	const database = openDatabase({
		url: config.databaseUrl,
		pgliteDir: path.join(config.dataDir, 'db'),
		max: 2
	});
	await database.migrate();
	await database.close();
	console.log(`migrations applied (${database.driver})`);
} catch (error) {
	console.error(error instanceof ConfigError ? error.message : error);
	process.exit(1);
}
