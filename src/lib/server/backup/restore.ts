/**
 * Restoring a backup (docs/operations.md): `npm run restore`. Two passes over the file. The first reads it whole
 * and checks it — the format, the migration it was made at, every entry against the manifest's size and SHA-256 —
 * and changes nothing. The second, in one transaction, rebuilds the schema as the backup knew it, loads the rows
 * and puts the objects; only then are the newer migrations applied. Whatever fails before the commit leaves the
 * database as it was and removes the objects it added.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Database } from '../db';
import { tidyEmbedded } from '../db/upkeep';
import { applyMigrationsWithin, holdMigrationLockWithin, shippedMigrations } from '../db/migrate';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { isValidObjectPath, type Storage } from '../storage';
import {
	entryKind,
	HEADER_ENTRY,
	InvalidArchiveError,
	parseHeader,
	parseManifest,
	readArchive,
	readSmall,
	TargetError,
	type BackupHeader,
	type Manifest
} from './archive';
import {
	countRows,
	dropTables,
	loadCopyRows,
	OPERATIONAL_TABLES,
	resetSequences,
	ourTables,
	TableLoader
} from './tables';

/**
 * Opens the archive's plain tar.gz afresh for each pass (a file, decrypted as it is read: encryption.ts). A key
 * that opens nothing is refused here, before any byte is read.
 */
export type ArchiveSource = () => Readable | Promise<Readable>;

export interface VerifiedBackup {
	header: BackupHeader;
	manifest: Manifest;
	/** How many of this version's migrations the backup's schema had. */
	migrationCount: number;
	secret: string;
}

/** Pass one: reads the whole archive and proves it sound and restorable here. Changes nothing. */
export async function verifyBackup(open: ArchiveSource): Promise<VerifiedBackup> {
	let header: BackupHeader | null = null;
	let manifest: Manifest | null = null;
	let secret = '';
	const lines = new Map<string, number>();
	const copied = new Set<string>();
	let position = 0;
	let migrationCount = 0;
	const seen = await readArchive(await open(), async (entry) => {
		const what = entryKind(entry.name);
		if (position++ === 0 && what.kind !== 'header')
			throw new InvalidArchiveError(`not an Atelier backup: it does not start with ${HEADER_ENTRY}`);
		if (manifest) throw new InvalidArchiveError(`entry ${entry.name} after the manifest`);
		if (what.kind === 'header') {
			// Refused at once, before the rest is read, when a newer version wrote it.
			header = parseHeader(await readSmall(entry.body, 64 * 1024));
			migrationCount = migrationCountOf(header);
		} else if (what.kind === 'secret') secret = (await readSmall(entry.body, 4096)).toString('utf8');
		else if (what.kind === 'manifest') manifest = parseManifest(await readSmall(entry.body));
		else if (what.kind === 'table') {
			if (what.format === 'copy') copied.add(what.table);
			let count = 0;
			for await (const chunk of entry.body)
				for (let at = (chunk as Buffer).indexOf(10); at !== -1; at = (chunk as Buffer).indexOf(10, at + 1))
					count++;
			lines.set(what.table, count);
		} else if (what.kind === 'object') {
			if (!isValidObjectPath(what.path) || !entry.meta)
				throw new InvalidArchiveError(`entry ${entry.name} is not an object Atelier wrote`);
		} else throw new InvalidArchiveError(`unexpected entry ${entry.name}`);
	});
	if (!header) throw new InvalidArchiveError('the archive is empty');
	if (!manifest)
		throw new InvalidArchiveError(
			'the archive has no manifest: it is truncated (was the backup interrupted?)'
		);
	const found: Manifest = manifest;
	const listed = new Map(found.entries.map((e) => [e.name, e]));
	const read = seen.filter((e) => entryKind(e.name).kind !== 'manifest');
	if (read.length !== listed.size)
		throw new InvalidArchiveError('the archive and its manifest list other entries');
	for (const entry of read) {
		const expected = listed.get(entry.name);
		if (!expected || expected.size !== entry.size || expected.sha256 !== entry.sha256)
			throw new InvalidArchiveError(`checksum mismatch on ${entry.name}: the archive is damaged`);
	}
	// Whatever the manifest says, a restore writes and drops only Atelier's own tables.
	const ours = ourTables();
	for (const table of Object.keys(found.tables))
		if (!ours.has(table))
			throw new InvalidArchiveError(`the archive names a table that is not Atelier's (${table})`);
	for (const table of lines.keys())
		if (!ours.has(table))
			throw new InvalidArchiveError(`the archive holds a table that is not Atelier's (${table})`);
	for (const [table, rows] of Object.entries(found.tables))
		if (lines.get(table) !== rows)
			throw new InvalidArchiveError(`table ${table} holds other rows than the manifest counts`);
	// COPY's fields have no names: the manifest gives them, as a list of names, one a field.
	for (const table of copied) {
		const columns = found.columns?.[table];
		if (!Array.isArray(columns) || !columns.length || !columns.every((c) => typeof c === 'string' && c))
			throw new InvalidArchiveError(
				`table ${table} is in COPY's format, and the manifest names no columns for it`
			);
	}
	if (secret.length < 32) throw new InvalidArchiveError('the archive holds no signing secret');
	const verified: BackupHeader = header;
	return { header: verified, manifest: found, migrationCount, secret };
}

/** Where the backup's schema sits among this version's migrations; refuses one made by a newer version. */
function migrationCountOf(header: BackupHeader): number {
	const shipped = shippedMigrations();
	if (header.migration.when === null) return 0;
	const index = shipped.findIndex((m) => m.folderMillis === header.migration.when);
	if (index === -1)
		throw new InvalidArchiveError(
			`this backup was made by Atelier ${header.appVersion}, whose database has a migration this version does not ` +
				`know (${header.migration.tag ?? header.migration.when}): install that version or a later one, then restore`
		);
	return index + 1;
}

export interface RestoreTarget {
	database: Database;
	storage: Storage;
	/** DATA_DIR: the signing secret is written to DATA_DIR/secret. */
	dataDir: string;
}

/** What the target holds that a restore would replace. Empty means there is nothing to lose. */
export interface TargetContents {
	rows: Record<string, number>;
	objects: number;
	/** The bucket's objects, listed once: a forced restore removes those the backup does not hold. */
	objectPaths: Set<string>;
}

export async function inspectTarget({ database, storage }: RestoreTarget): Promise<TargetContents> {
	const counts = await countRows(database.db, [...ourTables()]);
	const rows = Object.fromEntries(
		[...counts].filter(([table, count]) => count > 0 && !OPERATIONAL_TABLES.has(table))
	);
	const objectPaths = new Set<string>();
	for await (const objectPath of storage.list()) if (objectPath) objectPaths.add(objectPath);
	return { rows, objects: objectPaths.size, objectPaths };
}

export const isEmpty = (contents: TargetContents) =>
	contents.objects === 0 && Object.keys(contents.rows).length === 0;

/** "users 3, leads 12; 5 objects in the bucket private-gallery" */
export function describeContents(contents: TargetContents, bucket: string): string {
	const parts = Object.entries(contents.rows).map(([table, count]) => `${table} ${count}`);
	const rows = parts.length ? `rows: ${parts.join(', ')}` : 'no rows';
	return `${rows}; ${contents.objects} object${contents.objects === 1 ? '' : 's'} in the bucket ${bucket}`;
}

export class TargetNotEmptyError extends Error {
	constructor(readonly contents: TargetContents) {
		super('the database or the bucket is not empty');
		this.name = 'TargetNotEmptyError';
	}
}

export interface RestoreSummary {
	tables: Record<string, number>;
	objects: number;
	/** Migrations applied after the rows were loaded (the backup was made by an older version). */
	migrationsAfter: number;
	/** Objects that were in the bucket but not in the backup, removed (with force only). */
	removedObjects: number;
}

/**
 * Pass two. Refuses a target that holds data unless `force`. The archive must have been verified first (its
 * migration count comes from there); sizes and checksums are checked again as it is read. `inspected`: what the
 * caller already found in the target (`inspectTarget`), so that the bucket is listed once.
 */
export async function restoreBackup(
	open: ArchiveSource,
	verified: VerifiedBackup,
	target: RestoreTarget,
	{
		force = false,
		migrate = true,
		inspected
	}: { force?: boolean; migrate?: boolean; inspected?: TargetContents } = {}
): Promise<RestoreSummary> {
	const { database, storage } = target;
	const before = inspected ?? (await inspectTarget(target));
	if (!force && !isEmpty(before)) throw new TargetNotEmptyError(before);
	const existingObjects = before.objectPaths;
	const added: string[] = [];
	const restoredObjects = new Set<string>();
	const tables: Record<string, number> = {};
	const migrations = shippedMigrations();

	try {
		await database.db.transaction(async (tx) => {
			// A server starting meanwhile on PostgreSQL waits here instead of migrating a half-restored schema.
			if (database.driver === 'postgres') await holdMigrationLockWithin(tx);
			await dropTables(tx, ourTables());
			await applyMigrationsWithin(tx, migrations.slice(0, verified.migrationCount));
			const checked = await readArchive(await open(), async (entry) => {
				const what = entryKind(entry.name);
				if (what.kind === 'table' && what.format === 'copy') {
					const columns = verified.manifest.columns?.[what.table] ?? [];
					tables[what.table] = await loadCopyRows(tx, database.driver, what.table, columns, entry.body);
				} else if (what.kind === 'table') {
					const loader = new TableLoader(tx, what.table);
					let rest = '';
					for await (const chunk of entry.body) {
						const text = rest + (chunk as Buffer).toString('utf8');
						const lines = text.split('\n');
						rest = lines.pop()!;
						for (const line of lines) await loader.add(line);
					}
					await loader.add(rest);
					await loader.flush();
					tables[loader.table] = loader.rows;
				} else if (what.kind === 'object' && entry.meta) {
					const objectPath = what.path;
					try {
						await storage.putStream(objectPath, entry.body, entry.size, entry.meta);
					} catch (error) {
						throw new TargetError(`object ${objectPath} could not be stored: ${(error as Error).message}`);
					}
					restoredObjects.add(objectPath);
					if (!existingObjects.has(objectPath)) added.push(objectPath);
				}
			});
			const expected = new Map(verified.manifest.entries.map((e) => [e.name, e.sha256]));
			for (const entry of checked)
				if (entryKind(entry.name).kind !== 'manifest' && expected.get(entry.name) !== entry.sha256)
					throw new InvalidArchiveError(`the archive changed since it was checked (${entry.name})`);
			for (const [table, rows] of Object.entries(verified.manifest.tables))
				if (tables[table] !== rows)
					throw new InvalidArchiveError(
						`table ${table}: ${tables[table] ?? 0} rows loaded, ${rows} expected`
					);
			await resetSequences(tx);
		});
	} catch (error) {
		// Rolled back: take away what this restore put in the bucket, so the target is as it was.
		await Promise.allSettled(added.map((objectPath) => storage.delete(objectPath)));
		throw error;
	}

	if (migrate) await database.migrate();
	// Loaded rows come with no statistics, and the embedded database has no autovacuum to gather them.
	await tidyEmbedded(database);
	let removedObjects = 0;
	if (force)
		for (const objectPath of existingObjects)
			if (!restoredObjects.has(objectPath)) {
				await storage.delete(objectPath);
				removedObjects++;
			}
	await writeSecret(target.dataDir, verified.secret);
	return {
		tables,
		objects: restoredObjects.size,
		migrationsAfter: migrate ? migrations.length - verified.migrationCount : 0,
		removedObjects
	};
}

/** DATA_DIR/secret, replaced atomically (mode 600): the secret the restored links were signed with. */
async function writeSecret(dataDir: string, secret: string): Promise<void> {
	const file = path.join(dataDir, 'secret');
	const current = await readFile(file, 'utf8').catch(() => null);
	if (current?.trim() === secret.trim()) return;
	await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
	const temp = `${file}.${randomUUID()}.tmp`;
	await writeFile(temp, `${secret.trim()}\n`, { mode: PRIVATE_FILE_MODE });
	await rename(temp, file);
}
