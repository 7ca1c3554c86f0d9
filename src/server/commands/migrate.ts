/** `npm run db:migrate`: applies the committed migrations to the configured database and exits. */
import { loadConfig } from '../../lib/server/config';
import { openCommandDatabase, runCommand, EXIT } from '../cli/command';

runCommand(async () => {
	const database = openCommandDatabase(
		loadConfig(),
		'migrate',
		() => 'The running server applied them when it started: there is nothing to do.'
	);
	try {
		await database.migrate();
		console.log(`migrations applied (${database.driver})`);
	} finally {
		await database.close();
	}
	return EXIT.done;
});
