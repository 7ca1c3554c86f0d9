/**
 * The database's part of a backup: every table of the `public` schema, read in one read-only snapshot, parents
 * first, so that a restore can load them in archive order with every foreign key already satisfied. PostgreSQL
 * writes each table as pg_dump reads it, in COPY's text format (copy-rows.ts), and a restore loads it with COPY;
 * the embedded database, which has no COPY to a client, writes one JSON object per row (`row_to_json`, which
 * `jsonb_populate_recordset` reads back to every column's type), as every archive did before format 2. A restore
 * reads both, on either driver.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type postgres from 'postgres';
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../db';
import { rowsOf, shippedMigrations } from '../db/migrate';
import * as schema from '../db/schema';
import { PRIVATE_FILE_MODE } from '../private-files';
import { TargetError, type TableFormat } from './archive';
import { BufferBlob, copyInto, CountedRows, wholeRowBatches } from './copy-rows';

/**
 * Rows fetched from the embedded database's cursor at a time (a few MB), and rows inserted per statement: memory
 * stays flat.
 */
const FETCH_ROWS = 2000;
const INSERT_ROWS = 500;
const INSERT_BYTES = 4 * 1024 * 1024;
/** COPY text handed to the embedded database at a time (its COPY reads one buffer whole). */
const COPY_LOAD_BYTES = 4 * 1024 * 1024;

/** Tables of the `public` schema, every table after the ones its foreign keys point to. */
export async function tablesInLoadOrder(db: DbOrTx): Promise<string[]> {
	const tables = rowsOf<{ name: string }>(
		await db.execute(
			sql`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by relname`
		)
	).map((row) => row.name);
	const edges = rowsOf<{ child: string; parent: string }>(
		await db.execute(sql`
			select child.relname as child, parent.relname as parent
			from pg_constraint c
			join pg_class child on child.oid = c.conrelid
			join pg_class parent on parent.oid = c.confrelid
			where c.contype = 'f' and c.connamespace = 'public'::regnamespace`)
	);
	const ordered: string[] = [];
	const visiting = new Set<string>();
	const visit = (table: string) => {
		if (ordered.includes(table) || visiting.has(table)) return; // a cycle or a self-reference: order as found
		visiting.add(table);
		for (const edge of edges) if (edge.child === table && edge.parent !== table) visit(edge.parent);
		visiting.delete(table);
		ordered.push(table);
	};
	for (const table of tables) visit(table);
	return ordered;
}

/** The tables this version of Atelier defines: the only ones a restore may drop. */
export const schemaTables: string[] = Object.values(schema)
	.filter((value) => is(value, PgTable))
	.map((table) => getTableName(table as PgTable));

/**
 * Every table this version's migrations create: the schema's, and any table a migration made that the schema has
 * no model for (yet or any more). A restore into a database migrated further than its archive (`--as-archived`,
 * `npm run rollback`) drops these too, so that the older version's migrations find the place as they left it.
 */
export function migrationTables(): string[] {
	const names = new Set<string>();
	for (const migration of shippedMigrations())
		for (const statement of migration.sql)
			for (const match of statement.matchAll(
				/create\s+table\s+(?:if\s+not\s+exists\s+)?(?:"?public"?\.)?"?(\w+)"?/gi
			))
				names.add(match[1]!);
	return [...names];
}

/**
 * Atelier's tables: what a backup takes and what a restore may drop or fill. Another application's tables, or an
 * extension's (PostGIS's `spatial_ref_sys`), in the same database are neither read nor touched.
 */
export function ourTables(): Set<string> {
	return new Set([...schemaTables, ...migrationTables()]);
}

/**
 * Rows never written to a backup (their table is, empty): the day's salt of the audience and the visitors' hashes and
 * landings it makes, deleted when the day ends (insights/visits.ts). A backup is kept for weeks; these must not be.
 */
export const DAY_BOUND_TABLES = new Set(['audience_salts', 'audience_landings', 'audience_visitor_rows']);

/**
 * Tables kept by the database itself from another table's rows (triggers): written empty, and filled again by
 * their triggers as a restore loads the rows they count — or by their migration, when the archive predates them.
 */
export const DERIVED_TABLES = new Set(['leads_daily']);

/** Rows that say nothing about the business: a database holding only these counts as empty. */
export const OPERATIONAL_TABLES = new Set([
	'rate_limits',
	'job_runs',
	'app_releases',
	'backup_runs',
	'installation',
	...DAY_BOUND_TABLES,
	...DERIVED_TABLES
]);

const quoted = (name: string) => `"public"."${name.replaceAll('"', '""')}"`;
const identifier = (name: string) => sql.raw(quoted(name));

export interface TableFile {
	table: string;
	file: string;
	rows: number;
	format: TableFormat;
	/** The columns of a `copy` table, in the order of its fields. */
	columns: string[] | null;
}

/**
 * Writes each table to `<dir>/<table>.ndjson` inside one read-only, repeatable-read transaction: a consistent
 * snapshot even while servers write (PostgreSQL). The transaction lasts as long as reading the rows takes, not as
 * long as a slow client takes to download the archive; on the embedded database, where requests wait for it,
 * that is what keeps a backup from stalling the site.
 */
export async function snapshotTables(
	db: Db,
	dir: string,
	driver: 'pglite' | 'postgres' = 'pglite',
	/** Told of each table once its file is whole, in order. */
	onTable: (written: TableFile) => void = () => {}
): Promise<TableFile[]> {
	return db.transaction(async (tx) => {
		await tx.execute(sql`set transaction isolation level repeatable read, read only`);
		const files: TableFile[] = [];
		const ours = ourTables();
		const format: TableFormat = driver === 'postgres' ? 'copy' : 'ndjson';
		for (const table of await tablesInLoadOrder(tx)) {
			if (!ours.has(table)) continue;
			const file = path.join(dir, `${table}.${format}`);
			const out = createWriteStream(file, { mode: PRIVATE_FILE_MODE });
			const columns = format === 'copy' ? await columnsOf(tx, table) : null;
			let rows = 0;
			if (DAY_BOUND_TABLES.has(table) || DERIVED_TABLES.has(table)) {
				out.end();
				await finished(out);
			} else if (columns) rows = await copyRows(tx, table, columns, out);
			else rows = await fetchLines(tx, table, out);
			files.push({ table, file, rows, format, columns });
			onTable(files.at(-1)!);
		}
		return files;
	});
}

/**
 * A table's rows as JSON lines — `row_to_json`, which `jsonb_populate_recordset` reads back to every column's type
 * as it did `to_jsonb` (what older archives hold), in two thirds of the database's time.
 */
const jsonRows = (table: string) => `select row_to_json(t)::text from ${quoted(table)} t`;

/** A table's stored columns in order (not dropped, not generated: COPY neither writes nor takes those). */
async function columnsOf(tx: DbOrTx, table: string): Promise<string[]> {
	return rowsOf<{ name: string }>(
		await tx.execute(sql`
			select attname as name from pg_attribute
			where attrelid = ${quoted(table)}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
			order by attnum`)
	).map((row) => row.name);
}

const columnList = (columns: readonly string[]) =>
	columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(', ');

/**
 * drizzle keeps a transaction's driver client private; COPY needs it (drizzle has no COPY). It runs on the client
 * Drizzle runs on (its `session.client`, drizzle-orm 0.45): postgres.js's transaction, or PGlite's.
 */
function clientOf<Client>(tx: DbOrTx): Client {
	const client = (tx as unknown as { session?: { client?: Client } }).session?.client;
	// Not quietly another way: a Drizzle that keeps its client elsewhere fails the backup tests on both drivers.
	if (!client) throw new Error('no driver client under the Drizzle transaction');
	return client;
}

/**
 * PostgreSQL: the rows go out by `COPY … TO STDOUT`, as pg_dump reads them — each line as the server sent it,
 * never decoded into a JavaScript string nor held as one object per row. Read by a cursor (2,000 rows a fetch), a
 * million rows made a million buffers, and collecting them took most of `npm run backup` at the reference size;
 * `row_to_json` then took the database twice COPY's time and made the rows half as large again (306 MB against
 * 167 MB at the reference size, every line naming its columns) for the compression and the check to go through.
 * tests/integration/backup.integration.test.ts goes through it on PostgreSQL.
 */
export async function copyRows(tx: DbOrTx, table: string, columns: string[], out: Writable): Promise<number> {
	const client = clientOf<postgres.TransactionSql>(tx);
	const copy = await client.unsafe(`copy ${quoted(table)} (${columnList(columns)}) to stdout`).readable();
	const rows = new CountedRows();
	await copyInto(copy, rows, out);
	return rows.rows;
}

/** The embedded database (no COPY to a client): a cursor, FETCH_ROWS at a time. */
async function fetchLines(tx: DbOrTx, table: string, out: Writable): Promise<number> {
	let rows = 0;
	await tx.execute(sql.raw(`declare backup_rows no scroll cursor for ${jsonRows(table)}`));
	for (;;) {
		const batch = rowsOf<{ row_to_json: string }>(
			await tx.execute(sql.raw(`fetch ${FETCH_ROWS} from backup_rows`))
		);
		if (!batch.length) break;
		rows += batch.length;
		if (!out.write(batch.map((row) => `${row.row_to_json}\n`).join(''))) await once(out, 'drain');
	}
	await tx.execute(sql`close backup_rows`);
	out.end();
	await finished(out);
	return rows;
}

/** Counts the rows of the given tables that exist in the database. */
export async function countRows(db: DbOrTx, tables: string[]): Promise<Map<string, number>> {
	const present = new Set(await tablesInLoadOrder(db));
	const counts = new Map<string, number>();
	for (const table of tables) {
		if (!present.has(table)) continue;
		const [row] = rowsOf<{ n: string | number }>(
			await db.execute(sql`select count(*) as n from ${identifier(table)}`)
		);
		counts.set(table, Number(row?.n ?? 0));
	}
	return counts;
}

/** Drops the given tables (Atelier's: `ourTables`) and drizzle's record of migrations: a blank slate. */
export async function dropTables(tx: DbOrTx, tables: Iterable<string>): Promise<void> {
	const present = new Set(await tablesInLoadOrder(tx));
	for (const table of tables)
		if (present.has(table)) await tx.execute(sql`drop table ${identifier(table)} cascade`);
	await tx.execute(sql`drop table if exists "drizzle"."__drizzle_migrations"`);
}

/**
 * Collects a table's lines into batches and inserts each with `jsonb_populate_recordset`, which gives every
 * value its column's type. Returns how many rows went in.
 */
export class TableLoader {
	private batch: string[] = [];
	private bytes = 0;
	rows = 0;

	constructor(
		private readonly tx: DbOrTx,
		readonly table: string
	) {}

	async add(line: string): Promise<void> {
		if (!line) return;
		this.batch.push(line);
		this.bytes += line.length;
		if (this.batch.length >= INSERT_ROWS || this.bytes >= INSERT_BYTES) await this.flush();
	}

	async flush(): Promise<void> {
		if (!this.batch.length) return;
		const json = `[${this.batch.join(',')}]`;
		this.batch = [];
		this.bytes = 0;
		let inserted;
		try {
			inserted = await this.tx.execute(
				sql`insert into ${identifier(this.table)} select * from jsonb_populate_recordset(null::${identifier(this.table)}, ${json}::jsonb)`
			);
		} catch (error) {
			// The database's own reason, and no more: the driver's error quotes the statement and its values — the
			// rows being restored, people's details — which a terminal or a log must not show.
			throw new TableLoadError(this.table, databaseReason(error));
		}
		this.rows += affected(inserted);
	}
}

/**
 * Loads a table written in COPY's text format (copy-rows.ts) with COPY, on either driver: the rows go in as they are
 * read, never parsed here. Returns how many rows went in.
 */
export async function loadCopyRows(
	tx: DbOrTx,
	driver: 'pglite' | 'postgres',
	table: string,
	columns: readonly string[],
	body: Readable
): Promise<number> {
	const statement = `copy ${quoted(table)} (${columnList(columns)}) from`;
	try {
		return driver === 'postgres'
			? await copyFromStdin(clientOf<postgres.TransactionSql>(tx), statement, body)
			: await copyFromBlobs(clientOf<PgliteClient>(tx), statement, body);
	} catch (error) {
		// As TableLoader: the database's own reason, not the driver's error, which may quote the rows. What is not
		// the database's (the archive's entry failing as it is read) goes on as it is.
		const refusal = refusalOf(error);
		if (refusal === null) throw error;
		throw new TableLoadError(table, refusal);
	}
}

/** The part of PGlite's transaction that COPY uses: a query that reads `/dev/blob` from `blob`. */
interface PgliteClient {
	query(text: string, params: unknown[], options: { blob: Blob }): Promise<{ affectedRows?: number }>;
}

/**
 * PostgreSQL: `COPY … FROM STDIN`, the entry piped in. postgres.js 3.4 never settles the stream when the server
 * refuses the rows after their end was sent (a foreign key, a unique value or a trigger checked once the rows are in:
 * porsager/postgres#1173, fixed by the unmerged #1183): the restore would wait forever inside its transaction. The
 * refusal still reaches the query's `reject`, which nothing listens to once the stream is handed out; it is taken
 * there, and the restore fails with the server's reason.
 */
async function copyFromStdin(
	client: postgres.TransactionSql,
	statement: string,
	body: Readable
): Promise<number> {
	const query = client.unsafe(`${statement} stdin`);
	const stream = await query.writable();
	const refused = new Promise<never>((_, reject) => {
		Object.assign(query, { reject });
	});
	const rows = new CountedRows();
	const copied = pipeline(body, rows, stream);
	copied.catch(() => {}); // when refused wins, the pipeline is left to the archive's end
	await Promise.race([copied, refused]);
	return rows.rows;
}

/**
 * The embedded database: `COPY … FROM '/dev/blob'`, a few MB of whole rows at a time, each batch copied into one
 * buffer that every batch of the load reuses. PGlite reads `/dev/blob` from the ArrayBuffer its blob's
 * `arrayBuffer()` gives: with a new Blob a batch, each batch made two buffers of its size outside the JavaScript
 * heap (the blob's bytes read back, and the batch joined), and V8 frees such buffers only when their total has grown
 * by some 64 MB — the restore of the reference size peaked at 307–336 MB, against 265–273 MB so.
 */
async function copyFromBlobs(client: PgliteClient, statement: string, body: Readable): Promise<number> {
	let rows = 0;
	const buffer = new ArrayBuffer(0, { maxByteLength: 2 * COPY_LOAD_BYTES });
	for await (const parts of wholeRowBatches(body, COPY_LOAD_BYTES)) {
		const length = parts.reduce((sum, part) => sum + part.length, 0);
		// A row longer than the buffer (a long text) gets a buffer of its own.
		const bytes = length <= buffer.maxByteLength ? buffer : new ArrayBuffer(length);
		if (bytes === buffer) buffer.resize(length);
		const view = new Uint8Array(bytes);
		let at = 0;
		for (const part of parts) {
			view.set(part, at);
			at += part.length;
		}
		const result = await client.query(`${statement} '/dev/blob'`, [], { blob: new BufferBlob(bytes) });
		rows += result.affectedRows ?? 0;
	}
	return rows;
}

/** A table of the archive that the database refused; the message holds no row. */
export class TableLoadError extends TargetError {
	constructor(
		readonly table: string,
		reason: string
	) {
		super(`table ${table} could not be restored: ${reason}`);
		this.name = 'TableLoadError';
	}
}

/** PostgreSQL's message (and its code), from the driver's error or the one it wraps. */
const databaseReason = (error: unknown): string => refusalOf(error) ?? 'the database refused the rows';

/** PostgreSQL's message and code when the error is the database's (it has an SQLSTATE), else null. */
function refusalOf(error: unknown): string | null {
	for (
		let e = error as { message?: string; code?: string; cause?: unknown } | undefined;
		e;
		e = e.cause as typeof e
	) {
		if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return `${e.message} (${e.code})`;
	}
	return null;
}

const affected = (result: unknown): number => {
	const r = result as { count?: number; affectedRows?: number };
	return Number(r.count ?? r.affectedRows ?? 0);
};

/**
 * Columns fed by a sequence (serial or identity) continue after the highest restored value, so the next insert
 * does not collide with a restored row. None of today's tables has one; a future one will be covered.
 */
export async function resetSequences(tx: DbOrTx): Promise<void> {
	const columns = rowsOf<{ table_name: string; column_name: string; sequence: string }>(
		await tx.execute(sql`
			select c.relname as table_name, a.attname as column_name,
				pg_get_serial_sequence(format('%I.%I', 'public', c.relname), a.attname) as sequence
			from pg_attribute a join pg_class c on c.oid = a.attrelid
			where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
				and pg_get_serial_sequence(format('%I.%I', 'public', c.relname), a.attname) is not null`)
	);
	for (const { table_name, column_name, sequence } of columns)
		await tx.execute(
			sql`select setval(${sequence}::regclass, coalesce((select max(${sql.raw(`"${column_name.replaceAll('"', '""')}"`)}) from ${identifier(table_name)}), 0) + 1, false)`
		);
}
