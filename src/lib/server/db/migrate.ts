import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';
import { installRoot } from '../install-root';

/** Any stable 64-bit number: it names the lock that serialises migrations across instances. */
const MIGRATION_LOCK_ID = 7_346_129_001n;

export const migrationsFolder = path.join(installRoot, 'drizzle');

/**
 * Applies the committed migrations under drizzle/. On PostgreSQL a session-level advisory lock, held on a
 * dedicated connection, makes instances that start together wait for each other instead of racing to create
 * the same tables; the second one then finds nothing left to do.
 */
export async function applyMigrations(
	db: PgDatabase<PgQueryResultHKT, Record<string, unknown>>,
	client: postgres.Sql | null
): Promise<void> {
	if (!client) {
		// @ts-expect-error the migrator wants the driver-specific type; the object is that driver's.
		await migratePglite(db, { migrationsFolder });
		return;
	}
	const lockConnection = await client.reserve();
	try {
		await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK_ID.toString()}::bigint)`;
		// @ts-expect-error as above
		await migratePostgres(db, { migrationsFolder });
	} finally {
		await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK_ID.toString()}::bigint)`.catch(() => {});
		lockConnection.release();
	}
}
