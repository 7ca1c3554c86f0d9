/**
 * The one helper every operator command is built on (the five of src/server/commands/: `npm run db:migrate`,
 * `admin`, `backup`, `restore`, `stats`; one file each there, bundled beside the server by
 * scripts/build-server.mjs): the process settings, the configuration's refusals, the data directory's lock, the
 * database, the exit codes, the paths the operator typed.
 * Messages are in English, as the server's log and the operations guide are; a refusal is one line, never a stack.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, configuredInstallation, type Config } from '../../lib/server/config';
import { openDatabase, type Database } from '../../lib/server/db';
import { DataDirLockedError } from '../../lib/server/db/data-dir-lock';
import { appliedMigrations, schemaLag } from '../../lib/server/db/migrate';
import { restrictNewFiles } from '../../lib/server/private-files';
import { boundHeapGrowth } from '../heap';

// What V8 and glibc read only at start-up (PGlite's WebAssembly compiled by the baseline compiler only, the
// server's allocator settings) was settled before this file was loaded, by the launcher scripts/build-server.mjs
// writes (build/<command>.js).
// As the server does (src/server/index.ts): a backup or restore of thousands of images should not hold hundreds
// of megabytes of garbage that V8 would collect only once idle. Until December 2026 this was `--optimize-for-size`,
// which also compiles every function for size: `npm run backup` of `npm run bench scale`'s database took 8.7–10.0 s
// with it and 5.9–6.1 s with the server's bounds (peak 131 → 190 MB; pg_dump -Fc: 2.6–2.9 s).
boundHeapGrowth();

/** A refusal the operator can act on: printed as it is, exit 1, no stack. */
export class CommandError extends Error {}

/**
 * A command that acts on an installation (`backup`, `admin`, `stats`, the installation's key for `--verify`) first
 * checks that DATA_DIR holds one — before loadConfig, which would create a signing secret there, and before the
 * database opens, which would create an empty embedded one. A shell without the server's DATA_DIR (the server has it
 * in its unit's environment) otherwise backed up a new, empty site and called it a success. Nothing is created.
 */
export function requireInstallation(command: string): void {
	const { dataDir, embedded, secretGiven } = configuredInstallation();
	// On PostgreSQL with SIGNING_SECRET given, DATA_DIR may well not exist on this host (the database is checked
	// once open); everywhere else the installation is files in it.
	const needsFolder = embedded || !secretGiven;
	const missing =
		needsFolder && !existsSync(dataDir)
			? 'this folder does not exist'
			: embedded && !existsSync(path.join(dataDir, 'db', 'PG_VERSION'))
				? `it holds no embedded database (${path.join(dataDir, 'db')})`
				: !secretGiven && !existsSync(path.join(dataDir, 'secret'))
					? `it holds no signing secret (${path.join(dataDir, 'secret')}) and SIGNING_SECRET is not set`
					: null;
	if (missing) throw new CommandError(notInstalled(dataDir, missing, command));
}

const notInstalled = (dataDir: string, why: string, command: string) =>
	`No Atelier installation in DATA_DIR ${dataDir}: ${why}. Nothing was created. DATA_DIR comes from this ` +
	"shell's environment (unset: ./data in the project's folder): set it — and DATABASE_URL, SIGNING_SECRET — as " +
	`the server has them (its systemd unit, compose file or .env says which), then run \`npm run ${command}\` again.`;

/**
 * After the database opened: it must hold an installation — a database no server ever migrated is a wrong
 * DATABASE_URL (or a new site), not one to back up or to add an administrator to.
 */
export async function requireInstalledDatabase(database: Database, dataDir: string, command: string) {
	if ((await appliedMigrations(database.db)).length > 0) return;
	throw new CommandError(
		notInstalled(
			dataDir,
			database.driver === 'postgres'
				? 'the database DATABASE_URL names holds no Atelier schema'
				: 'its database holds no Atelier schema',
			command
		)
	);
}

/**
 * The configured database for a command. On the embedded one a running server holds DATA_DIR: the command
 * refuses, with the lock's message and `whenHeld` — what to do instead, given the server's address (the one it
 * wrote in the lock: this shell's ORIGIN and PORT may well not be the server's).
 */
export function openCommandDatabase(
	config: Config,
	purpose: string,
	whenHeld: (serverAddress: string) => string
): Database {
	try {
		return openDatabase({
			url: config.databaseUrl,
			pgliteDir: config.databaseUrl ? null : path.join(config.dataDir, 'db'),
			max: 2,
			purpose
		});
	} catch (error) {
		if (error instanceof DataDirLockedError)
			throw new CommandError(`${error.message}\n${whenHeld(error.holder.origin ?? config.origin.origin)}`);
		throw error;
	}
}

/**
 * For a command that only reads (`stats`): the database must be at this version's schema, since reading must not
 * migrate it. Behind, the operator is told how to bring it up; ahead (a newer release migrated it), that this one
 * cannot read it.
 */
export async function requireCurrentSchema(database: Database): Promise<void> {
	const { missing, unknown } = await schemaLag(database.db);
	if (unknown > 0)
		throw new CommandError(
			`This database holds ${unknown} migration(s) this version does not know: a newer Atelier migrated it. ` +
				'Run the command of that version.'
		);
	if (missing > 0)
		throw new CommandError(
			`This database is ${missing} migration(s) behind this version, and this command changes nothing: start ` +
				'the server (it migrates as it starts) or run `npm run db:migrate`, then run it again.'
		);
}

/** A path the operator typed: relative to where they ran `npm run` (npm itself moves to the project's folder). */
export function operatorPath(file: string): string {
	// Not configuration: where npm was started from, which npm passes on as INIT_CWD.
	// eslint-disable-next-line no-restricted-properties
	return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

/**
 * The one file a command reads (`backup --verify FILE`, `restore FILE`), as the operator means it: null once the
 * usage is printed when there is none, several or an option in its place; refused when no such file exists.
 */
export async function fileArgument(args: readonly string[], usage: string): Promise<string | null> {
	if (args.length !== 1 || args[0]!.startsWith('-')) {
		console.error(usage);
		return null;
	}
	const file = operatorPath(args[0]!);
	if (!(await stat(file).catch(() => null))?.isFile()) throw new CommandError(`${file}: no such file`);
	return file;
}

/** How a command ends: 0 done, 1 refused or failed (the message says why), 2 not understood (the usage). */
export const EXIT = { done: 0, failed: 1, usage: 2 } as const;

/**
 * Runs a command's main and exits with its code; expected refusals (configuration, CommandError) print one clear
 * message. Every file a command makes (a backup, a restored DATA_DIR, the database) is readable by its owner only.
 */
export function runCommand(main: (argv: string[]) => Promise<number>): void {
	restrictNewFiles();
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(error) => {
			console.error(error instanceof ConfigError || error instanceof CommandError ? error.message : error);
			process.exit(EXIT.failed);
		}
	);
}
