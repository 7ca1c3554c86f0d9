/**
 * One schema, two drivers: embedded PostgreSQL (PGlite) in DATA_DIR/db when DATABASE_URL is unset, a real
 * PostgreSQL server through postgres.js when it is set. Both are exposed as the same `Db` type.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { config } from '../config';
import { lazy } from '../lazy';
import { onShutdown } from '../lifecycle';
import { log } from '../log';
import { applyMigrations } from './migrate';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What queries accept: the database or an open transaction. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
	driver: 'pglite' | 'postgres';
	db: Db;
	/** Applies pending migrations; safe when several instances start at once on one server. */
	migrate(): Promise<void>;
	close(): Promise<void>;
	/** The postgres.js client, for LISTEN/NOTIFY; null on PGlite (a single process). */
	pg: postgres.Sql | null;
}

export interface OpenOptions {
	/** postgres:// URL, or null for PGlite. */
	url: string | null;
	/** PGlite's directory; null keeps it in memory (tests). */
	pgliteDir?: string | null;
	/** Connections in the postgres.js pool. */
	max?: number;
}

/**
 * PGlite starts PostgreSQL with a server's defaults, shared_buffers = 128MB, a pool sized for a machine's worth
 * of data that one site's database (a few MB) never fills, yet the start-up still makes most of it resident.
 * 8MB holds the whole working set. Measured on build/server.js restarted on an existing DATA_DIR, idle
 * (`npm run bench memory`): 310–340 → 190–215 MB after start-up, 375–385 → 230–265 MB after page requests;
 * page rendering is not slower (`npm run bench pages`). Tried and dropped, no measurable effect (within the
 * ±15 MB of noise): max_connections, wal_buffers, temp_buffers, wal_level=minimal, max_wal_senders and
 * max_replication_slots = 0, autovacuum_worker_slots. `initialMemory` cannot go below the module's own 128 MB
 * (PGlite refuses it) and only reserves address space; relaxedDurability concerns syncing to IndexedDB, not
 * memory; no extension is loaded. PGlite's own start parameters (search_path…) are kept.
 */
const PGLITE_OPTIONS: PGliteOptions = {
	startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB']
};

/**
 * A new data directory is initialised (initdb) in a short-lived child process rather than in this one: PGlite
 * runs initdb with two extra WebAssembly instances whose memory this process would keep long after they are
 * gone (freed only by a later garbage collection, and then not all of it). Measured on the first start of
 * build/server.js on an empty DATA_DIR, idle after start-up: 750–840 MB with initdb in process (with or without
 * the setting above), 190–235 MB with it in a child. Blocks only the first start (initdb takes a few seconds),
 * before the server listens; should the child fail, PGlite initialises the directory in process as before.
 */
function initialiseApart(dir: string, options: PGliteOptions) {
	if (existsSync(path.join(dir, 'PG_VERSION'))) return;
	const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
	const code = `const { PGlite } = require(process.argv[1]);
const pg = new PGlite(process.argv[2], JSON.parse(process.argv[3]));
pg.waitReady.then(() => pg.close()).then(
	() => process.exit(0),
	(error) => { console.error(error); process.exit(1); }
);`;
	const child = spawnSync(process.execPath, ['-e', code, entry, dir, JSON.stringify(options)], {
		stdio: ['ignore', 'ignore', 'pipe'],
		timeout: 120_000
	});
	if (child.status !== 0)
		log.warn('initialising the embedded database in a child process failed; initialising it here', {
			status: child.status,
			signal: child.signal,
			error: child.error,
			stderr: child.stderr?.toString().slice(-2000)
		});
}

export function openDatabase({ url, pgliteDir = null, max = 10 }: OpenOptions): Database {
	if (url) {
		const client = postgres(url, { max, connect_timeout: 10, onnotice: () => {} });
		const db = drizzlePostgres(client, { schema }) as unknown as Db;
		return {
			driver: 'postgres',
			db,
			pg: client,
			migrate: () => applyMigrations(db, client),
			close: () => client.end({ timeout: 5 })
		};
	}
	if (pgliteDir) initialiseApart(pgliteDir, PGLITE_OPTIONS);
	const client = pgliteDir ? new PGlite(pgliteDir, PGLITE_OPTIONS) : new PGlite(PGLITE_OPTIONS);
	const db = drizzlePglite(client, { schema }) as unknown as Db;
	return {
		driver: 'pglite',
		db,
		pg: null,
		migrate: () => applyMigrations(db, null),
		close: async () => {
			if (!client.closed) await client.close();
		}
	};
}

/** The application's database, opened on first use from configuration and closed on shutdown. */
export const database: Database = lazy(() => {
	const opened = openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
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
