import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';
import { installRoot, migrationsFolder } from '../install-root';
import { log } from '../log';
import { appRelease, type Release } from '../version';

/** Any stable 64-bit number: it names the lock that serialises migrations across instances (and restores). */
export const MIGRATION_LOCK_ID = 7_346_129_001n;

export { migrationsFolder };

export interface MigrateOptions {
	/** Called before migrations run on a database that already had some (not on a new one): a backup. */
	beforeMigrating?: (pending: Migration[]) => Promise<void>;
}

/** The database was migrated by a newer release than this one: starting would run old code on a newer schema. */
export class NewerSchemaError extends Error {
	constructor(
		readonly newer: { version: string; commit: string } | null,
		readonly mine: Release,
		readonly unknownMigrations: number,
		/** The backup `npm run upgrade` took before migrating, when it recorded one. */
		readonly backupBeforeUpgrade: string | null = upgradeBackup()
	) {
		super(
			`This database was migrated by a newer Atelier (${newer ? `${newer.version}, commit ${newer.commit}` : 'a later version'}) ` +
				`than this one (${mine.version}, commit ${mine.commit}): it holds ${unknownMigrations} migration(s) this version does not know. ` +
				`Nothing was changed. Start ${newer ? newer.version : 'that version'} again, or ` +
				(backupBeforeUpgrade
					? `go back with \`npm run rollback\`, which restores ${backupBeforeUpgrade}, the backup taken before the upgrade.`
					: 'restore the backup taken before the upgrade (npm run restore -- <file> --force, docs/operations.md) to run this one.')
		);
	}
}

/** The backup named by `npm run upgrade`'s record (builds/last-upgrade.json, scripts/releases.mjs), if any. */
function upgradeBackup(): string | null {
	try {
		const record = JSON.parse(
			readFileSync(path.join(installRoot, 'builds', 'last-upgrade.json'), 'utf8')
		) as {
			backup?: unknown;
		};
		return typeof record.backup === 'string' ? record.backup : null;
	} catch {
		return null;
	}
}

/**
 * Applies the committed migrations under drizzle/. On PostgreSQL a session-level advisory lock, held on a
 * dedicated connection, makes instances that start together wait for each other instead of racing to create
 * the same tables; the second one then finds nothing left to do. A database that a newer release migrated is
 * refused before anything runs; each migration applied is logged, and the release that applied it recorded.
 */
export async function applyMigrations(
	db: PgDatabase<PgQueryResultHKT, Record<string, unknown>>,
	client: postgres.Sql | null,
	{ beforeMigrating }: MigrateOptions = {}
): Promise<void> {
	const migrateWith = async (migrate: () => Promise<void>) => {
		const shipped = shippedMigrations();
		const before = await appliedMigrations(db);
		const newestShipped = shipped.at(-1)?.folderMillis ?? 0;
		const unknown = before.filter((m) => m.when > newestShipped);
		if (unknown.length) throw new NewerSchemaError(await lastRelease(db), appRelease(), unknown.length);
		const pending = shipped.filter((m) => !before.some((b) => b.when === m.folderMillis));
		// Under the lock on PostgreSQL: of several instances starting at once, the one that migrates backs up.
		if (pending.length && before.length) await beforeMigrating?.(pending);
		await migrate();
		for (const migration of pending) log.info('migration applied', { tag: migration.tag });
		if (pending.length) {
			const { version, commit } = appRelease();
			const tag = pending.at(-1)!.tag;
			await db.execute(
				sql`insert into app_releases (version, commit, migration) values (${version}, ${commit}, ${tag})`
			);
		}
	};
	if (!client) {
		// @ts-expect-error the migrator wants the driver-specific type; the object is that driver's.
		await migrateWith(() => migratePglite(db, { migrationsFolder }));
		return;
	}
	const lockConnection = await client.reserve();
	try {
		await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK_ID.toString()}::bigint)`;
		// @ts-expect-error as above
		await migrateWith(() => migratePostgres(db, { migrationsFolder }));
	} finally {
		await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK_ID.toString()}::bigint)`.catch(() => {});
		lockConnection.release();
	}
}

/** The release that last migrated the database, when one recorded itself (0.2.0 and later). */
async function lastRelease(db: Executor): Promise<{ version: string; commit: string } | null> {
	const [exists] = rowsOf<{ present: boolean }>(
		await db.execute(sql`select to_regclass('public.app_releases') is not null as present`)
	);
	if (!exists?.present) return null;
	const [row] = rowsOf<{ version: string; commit: string }>(
		await db.execute(sql`select version, commit from app_releases order by at desc limit 1`)
	);
	return row ?? null;
}

/** Where drizzle's migrator records what it applied (its defaults, which we keep). */
const MIGRATIONS_TABLE_NAME = '"drizzle"."__drizzle_migrations"';
const MIGRATIONS_TABLE = sql.raw(MIGRATIONS_TABLE_NAME);

export interface Migration extends MigrationMeta {
	/** The file's name without .sql (0007_site_image_alt), from drizzle/meta/_journal.json. */
	tag: string;
}

/** The migrations this version of Atelier ships, oldest first. */
export function shippedMigrations(): Migration[] {
	const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
		entries: { tag: string; when: number }[];
	};
	const files = readMigrationFiles({ migrationsFolder });
	return files.map((file, i) => ({ ...file, tag: journal.entries[i]!.tag }));
}

type Executor = Pick<PgDatabase<PgQueryResultHKT, Record<string, unknown>>, 'execute'>;

/** What the database records as applied, oldest first: drizzle keeps each migration's hash and journal time. */
export async function appliedMigrations(db: Executor): Promise<{ hash: string; when: number }[]> {
	const [exists] = rowsOf<{ present: boolean }>(
		await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)
	);
	if (!exists?.present) return [];
	return rowsOf<{ hash: string; created_at: string | number }>(
		await db.execute(sql`select hash, created_at from ${MIGRATIONS_TABLE} order by created_at`)
	).map((row) => ({ hash: row.hash, when: Number(row.created_at) }));
}

/**
 * How far the database is from this version's schema, without changing it: migrations this version ships that it
 * lacks, and migrations it holds that this version does not know (a newer release's). A command that only reads
 * (`npm run stats`) refuses either.
 */
export async function schemaLag(db: Executor): Promise<{ missing: number; unknown: number }> {
	const shipped = new Set(shippedMigrations().map((migration) => migration.hash));
	const applied = new Set((await appliedMigrations(db)).map((migration) => migration.hash));
	return {
		missing: [...shipped].filter((hash) => !applied.has(hash)).length,
		unknown: [...applied].filter((hash) => !shipped.has(hash)).length
	};
}

/**
 * The SQL that applies `migrations` and records them as drizzle's migrator does (so that a later `migrate()`
 * carries on from there), as plain statements: run inside a caller's transaction by restore, to rebuild the schema
 * a backup was made with, and by the process that creates the embedded database on a first start (db/index.ts).
 */
export function migrationSteps(migrations: Migration[]): string[] {
	const steps = [
		'create schema if not exists drizzle',
		`create table if not exists ${MIGRATIONS_TABLE_NAME} (id serial primary key, hash text not null, created_at bigint)`
	];
	for (const migration of migrations) {
		// Literals, checked: a SHA-256 in hex and the journal's integer time.
		if (!/^[0-9a-f]{64}$/.test(migration.hash) || !Number.isSafeInteger(migration.folderMillis))
			throw new Error(`migration ${migration.tag} has an unexpected hash or time`);
		steps.push(...migration.sql.filter((statement) => statement.trim()));
		steps.push(
			`insert into ${MIGRATIONS_TABLE_NAME} (hash, created_at) values ('${migration.hash}', ${migration.folderMillis})`
		);
	}
	return steps;
}

/**
 * Holds the migration lock for the caller's transaction (PostgreSQL): a server starting meanwhile waits instead of
 * migrating a schema the transaction is rewriting (a restore).
 */
export async function holdMigrationLockWithin(tx: Executor): Promise<void> {
	await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID.toString()}::bigint)`);
}

/** Applies `migrations` inside the caller's transaction (drizzle's own migrator opens a transaction of its own). */
export async function applyMigrationsWithin(tx: Executor, migrations: Migration[]): Promise<void> {
	for (const step of migrationSteps(migrations)) await tx.execute(sql.raw(step));
}

/** Rows of `execute()`, whichever driver: PGlite answers { rows }, postgres.js an array. */
export function rowsOf<T>(result: unknown): T[] {
	return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
