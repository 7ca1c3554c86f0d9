/**
 * One schema, two drivers: embedded PostgreSQL (PGlite) in DATA_DIR/db when DATABASE_URL is unset, a real
 * PostgreSQL server through postgres.js when it is set. Both are exposed as the same `Db` type.
 */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chmod, readdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { config } from '../config';
import { buildRoot, installRoot } from '../install-root';
import { lazy } from '../lazy';
import { onShutdown } from '../lifecycle';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { lockDataDir } from './data-dir-lock';
import { DurableNodeFS, fsyncTree } from './durable-fs';
import { applyMigrations, type MigrateOptions } from './migrate';
import { preparingStatementsOnPglite } from './pglite-prepared';
import { preparingStatements } from './prepared';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What queries accept: the database or an open transaction. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
	driver: 'pglite' | 'postgres';
	db: Db;
	/** Applies pending migrations; safe when several instances start at once on one server. */
	migrate(options?: MigrateOptions): Promise<void>;
	close(): Promise<void>;
	/** The postgres.js client, for LISTEN/NOTIFY; null on PGlite (a single process). */
	pg: postgres.Sql | null;
	/** PGlite in memory only: its files as one archive, which `OpenOptions.image` starts another from. */
	image?(): Promise<Blob>;
}

export interface OpenOptions {
	/** postgres:// URL, or null for PGlite. */
	url: string | null;
	/** PGlite's directory (DATA_DIR/db, locked for this process with its DATA_DIR); null keeps it in memory (tests). */
	pgliteDir?: string | null;
	/** What holds the lock, said to a second process that finds it held ("server", "backup", "admin"…). */
	purpose?: string;
	/** The server's address, written in the lock: a command that finds DATA_DIR held tells where to go instead. */
	origin?: string;
	/** Connections in the postgres.js pool. */
	max?: number;
	/**
	 * PostgreSQL only: what a statement may take, and wait for a lock, before the server cancels it (an outage
	 * answer, class 57 / 55P03, rather than a page that waits as long as the database does). The server's pool sets
	 * them; commands (backup, restore) and migrations run without.
	 */
	timeouts?: { statementMs: number; lockMs: number } | null;
	/**
	 * PGlite in memory only: the files to start from (`Database.image()`), rather than a new cluster — initdb
	 * and every migration take seconds of CPU; loading a migrated image, a tenth of it. The tests' databases.
	 */
	image?: Blob;
}

/** The server's limits (OpenOptions.timeouts): far above any query of a page, far below a visitor's patience. */
export const SERVER_QUERY_TIMEOUTS = { statementMs: 20_000, lockMs: 5_000 };
/** Seconds to open a connection before the attempt is an outage. */
const CONNECT_TIMEOUT_SECONDS = 10;

export function openDatabase({
	url,
	pgliteDir = null,
	max = 10,
	purpose,
	origin,
	timeouts = null,
	image
}: OpenOptions): Database {
	if (url) {
		const client = postgres(url, {
			max,
			connect_timeout: CONNECT_TIMEOUT_SECONDS,
			onnotice: () => {},
			// Startup parameters: each connection of the pool has them from its first statement.
			...(timeouts && {
				connection: {
					statement_timeout: timeouts.statementMs,
					lock_timeout: timeouts.lockMs,
					// A transaction left open (a process frozen mid-way) never holds its locks for long.
					idle_in_transaction_session_timeout: 60_000
				}
			})
		});
		// One round trip a query, not two (prepared.ts). Typed as the `Db` both drivers share: their query builders
		// are one API, their raw results' types differ.
		const db = drizzlePostgres(preparingStatements(client), { schema }) as unknown as Db;
		return {
			driver: 'postgres',
			db,
			pg: client,
			// A migration may rebuild a large table for longer than a page's limit: on a connection of its own.
			migrate: async (options) => {
				if (!timeouts) return applyMigrations(db, client, options);
				// Two connections: one holds the migration lock while the other migrates (migrate.ts).
				const migrator = postgres(url, {
					max: 2,
					connect_timeout: CONNECT_TIMEOUT_SECONDS,
					onnotice: () => {}
				});
				try {
					await applyMigrations(
						// As above: the migrator's connection, the same driver.
						drizzlePostgres(preparingStatements(migrator), { schema }) as unknown as Db,
						migrator,
						options
					);
				} finally {
					await migrator.end({ timeout: 5 });
				}
			},
			close: () => client.end({ timeout: 5 })
		};
	}
	let lock: ReturnType<typeof lockDataDir> | null = null;
	if (pgliteDir) {
		const dataDir = path.dirname(pgliteDir);
		mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
		lock = lockDataDir(dataDir, purpose, origin);
		if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
			createEmbeddedDatabase(pgliteDir);
			// Made by a process of its own without flushing: on disk before anything is acknowledged from it.
			fsyncTree(pgliteDir);
		}
	}
	const client = new PGlite({
		// In a folder, through a file system whose fsync reaches the disk (durable-fs.ts); in memory for tests.
		...(pgliteDir ? { fs: new DurableNodeFS(pgliteDir) } : { loadDataDir: image }),
		startParams: EMBEDDED_START_PARAMS
	});
	// A statement parsed once and run in one exchange with the engine, not six (pglite-prepared.ts). The shared `Db`
	// type, as above.
	const db = drizzlePglite(preparingStatementsOnPglite(client), { schema }) as unknown as Db;
	return {
		driver: 'pglite',
		db,
		pg: null,
		migrate: async (options) => {
			await applyMigrations(db, null, options);
			if (pgliteDir) await makePrivate(pgliteDir);
		},
		...(!pgliteDir && { image: () => client.dumpDataDir('none') }),
		close: async () => {
			if (!client.closed) await client.close();
			lock?.release();
		}
	};
}

/**
 * The embedded database serves one small site in one process, yet PGlite starts with PostgreSQL's server sizes
 * (128 MB of shared buffers, 100 connections). Sized down for what it does here; measured in `npm run bench`
 * (part memory) and the README. The first flags are PGlite's own defaults, which giving any replaces — but `-F`,
 * which would turn fsync off (tests/integration/durability.integration.test.ts fails on it).
 */
export const EMBEDDED_START_PARAMS = [
	// PGlite's defaults without `-F` (which turns fsync off): what the database acknowledges reaches the disk.
	...['--single', '-O', '-j'],
	...[
		'fsync=on',
		'synchronous_commit=on',
		// Emscripten's fdatasync does nothing; its fsync reaches the disk through durable-fs.ts.
		'wal_sync_method=fsync',
		'search_path=public',
		'exit_on_error=false',
		'log_checkpoints=false',
		'max_worker_processes=0',
		'max_parallel_workers=0',
		'max_parallel_workers_per_gather=0',
		'io_method=sync',
		'max_parallel_maintenance_workers=0',
		'shared_buffers=16MB',
		'temp_buffers=1MB',
		'wal_buffers=512kB',
		'max_connections=4',
		'work_mem=2MB',
		'maintenance_work_mem=16MB'
	].flatMap((setting) => ['-c', setting])
];

/**
 * PostgreSQL's initdb, as PGlite runs it, grows its WebAssembly memory to 0.6–1.1 GB (573 MB with V8's baseline
 * compiler, 1.09 GB without, `/usr/bin/time -v`), and WebAssembly memory never shrinks: on a 512 MB server the first
 * start of a new embedded database would be the moment it dies. Opening a database that initdb made, and applying
 * every migration to it, takes 154 MB. So initdb is done once, when the build is made (scripts/build.mjs writes
 * the bare cluster, no table of ours, as EMBEDDED_TEMPLATE in the build), and a new database is that archive
 * unpacked (tar, a few MB of memory); then it is opened and migrated like any other. Without a build (tests,
 * `vite dev`) initdb runs in a short-lived process of its own, with the baseline compiler.
 * Measured in `npm run bench backup` (the first start, restore and --verify into a new embedded database).
 */
export const EMBEDDED_TEMPLATE = 'embedded-database.tar.gz';

function createEmbeddedDatabase(dir: string): void {
	const template = buildRoot ? path.join(buildRoot, EMBEDDED_TEMPLATE) : null;
	mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
	if (template && existsSync(template)) {
		// Paths the build chose, never a request's: no shell, no user input.
		execFileSync('tar', ['-xzf', template, '-C', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
		return;
	}
	initEmbeddedDatabase(dir);
}

/** initdb into `dir`, in a process of its own (its memory goes with it): the bare cluster, no table of ours. */
export function initEmbeddedDatabase(dir: string): void {
	const script = `
		import { readFileSync } from 'node:fs';
		const { PGlite } = await import('@electric-sql/pglite');
		const { params } = JSON.parse(readFileSync(0, 'utf8'));
		const db = new PGlite(process.env.ATELIER_PGLITE_DIR, { startParams: params });
		await db.exec('select 1');
		await db.close();`;
	execFileSync(process.execPath, ['--liftoff-only', '--input-type=module', '--eval', script], {
		// From the installation's folder, so that the child finds the same @electric-sql/pglite.
		cwd: installRoot,
		// Only what it needs: none of the server's secrets.
		env: { ATELIER_PGLITE_DIR: dir },
		input: JSON.stringify({ params: EMBEDDED_START_PARAMS }),
		stdio: ['pipe', 'ignore', 'inherit']
	});
}

/**
 * PGlite's file system layer writes its files with mode 0666 whatever the process umask: close the database's
 * folder to everyone but the service (0700), which covers the files it creates later, and tighten the files
 * already there.
 */
async function makePrivate(dir: string): Promise<void> {
	await chmod(dir, PRIVATE_DIR_MODE);
	for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
		const full = path.join(entry.parentPath, entry.name);
		await chmod(full, entry.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE).catch(() => {});
	}
}

/** The application's database, opened on first use from configuration and closed on shutdown. */
export const database: Database = lazy(() => {
	const opened = openDatabase({
		url: config.databaseUrl,
		pgliteDir: path.join(config.dataDir, 'db'),
		origin: config.origin.origin,
		timeouts: SERVER_QUERY_TIMEOUTS
	});
	onShutdown(() => opened.close());
	return opened;
});

export const db: Db = lazy(() => database.db);

/** True when the database answers a trivial query within the time limit. */
export async function isHealthy(target: Db = db, timeoutMs = 3000): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
	try {
		return await Promise.race([target.execute(sql`select 1`).then(() => true), timeout]);
	} catch {
		return false;
	} finally {
		clearTimeout(timer);
	}
}

export { schema };
