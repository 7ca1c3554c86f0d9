/** What the operators' commands (`npm run admin`, `backup`, `restore`) share: opening the data, exiting, paths. */
import path from 'node:path';
import v8 from 'node:v8';
import { ConfigError, type Config } from '../lib/server/config';
import { openDatabase, type Database } from '../lib/server/db';
import { DataDirLockedError } from '../lib/server/db/data-dir-lock';
import { startWithCommandSettings } from './heap';

// As the server does (src/server/index.ts): a backup or restore of thousands of images should not hold hundreds
// of megabytes of garbage that V8 would collect only once idle.
v8.setFlagsFromString('--optimize-for-size');
// Before anything compiles PGlite's WebAssembly: the baseline compiler only, and the server's allocator settings.
startWithCommandSettings();

/** A refusal the operator can act on: printed as it is, exit 1, no stack. */
export class CommandError extends Error {}

/**
 * The configured database for a command. On the embedded one a running server holds DATA_DIR: the command
 * refuses, with the lock's message and `whenHeld` — what to do instead.
 */
export function openCommandDatabase(config: Config, purpose: string, whenHeld: string): Database {
	try {
		return openDatabase({
			url: config.databaseUrl,
			pgliteDir: config.databaseUrl ? null : path.join(config.dataDir, 'db'),
			max: 2,
			purpose
		});
	} catch (error) {
		if (error instanceof DataDirLockedError) throw new CommandError(`${error.message}\n${whenHeld}`);
		throw error;
	}
}

/** A path the operator typed: relative to where they ran `npm run` (npm itself moves to the project's folder). */
export function operatorPath(file: string): string {
	// Not configuration: where npm was started from, which npm passes on as INIT_CWD.
	// eslint-disable-next-line no-restricted-properties
	return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/** Runs a command's main and exits with its code; expected refusals print one clear message. */
export function runCommand(main: (argv: string[]) => Promise<number>): void {
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error) => {
			console.error(error instanceof ConfigError || error instanceof CommandError ? error.message : error);
			process.exit(1);
		}
	);
}
