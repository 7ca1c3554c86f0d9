/** Writing a backup (docs/operations.md): `npm run backup`, and the admin page « Sauvegarde » on a running server. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Duplex, Writable } from 'node:stream';
import type { Database } from '../db';
import { appliedMigrations, shippedMigrations } from '../db/migrate';
import type { Storage } from '../storage';
import { appRelease } from '../version';
import { ArchiveWriter, MAX_OBJECT_ENTRY_BYTES } from './archive';
import { snapshotTables } from './tables';

export interface BackupSource {
	database: Pick<Database, 'db' | 'driver'>;
	storage: Storage;
	signingSecret: string;
}

export interface BackupSummary {
	tables: Record<string, number>;
	objects: { count: number; bytes: number };
	/** Objects listed but deleted before they could be read (a running site replaced an image meanwhile). */
	vanished: number;
	/** How many migrations the archived schema had. */
	migrations: number;
}

/**
 * Writes one archive (archive.ts) to `output`: the tables as one consistent snapshot, then every object of the
 * bucket one at a time (each image is small; thousands of them never sit in memory together), the manifest last.
 * On any failure the output is destroyed, so what was written reads as truncated and restore refuses it.
 */
export async function writeBackup(
	source: BackupSource,
	output: Writable,
	options: { seal?: Duplex } = {}
): Promise<BackupSummary> {
	const { database, storage, signingSecret } = source;
	const archive = new ArchiveWriter(output, options.seal);
	// Private: the spooled rows hold password hashes and people's details.
	const spool = await mkdtemp(path.join(tmpdir(), 'atelier-backup-'));
	try {
		const applied = await appliedMigrations(database.db);
		const last = applied.at(-1);
		await archive.addHeader({
			appVersion: appRelease().version,
			appCommit: appRelease().commit,
			createdAt: new Date().toISOString(),
			source: { database: database.driver, storage: storage.driver, bucket: storage.bucket },
			migration: {
				count: applied.length,
				tag: shippedMigrations().find((m) => m.folderMillis === last?.when)?.tag ?? null,
				when: last?.when ?? null
			}
		});
		await archive.addSecret(signingSecret);
		// Each table goes into the archive as soon as it is spooled, compressed while the next one is read: the
		// database and the compression work side by side rather than one after the other.
		let archived: Promise<void> = Promise.resolve();
		const tables = await snapshotTables(database.db, spool, database.driver, ({ table, file, format }) => {
			archived = archived.then(async () => archive.addTable(table, file, (await stat(file)).size, format));
			archived.catch(() => {}); // awaited below; meanwhile not an unhandled rejection
		});
		await archived;

		const objects = { count: 0, bytes: 0 };
		let vanished = 0;
		for await (const objectPath of storage.list()) {
			const object = await storage.read(objectPath);
			if (!object) {
				vanished++;
				continue;
			}
			if (object.info.size > MAX_OBJECT_ENTRY_BYTES) {
				object.body.destroy();
				throw new Error(
					`the object ${objectPath} is larger than an archive entry can be (${object.info.size} bytes)`
				);
			}
			await archive.addObject(objectPath, object.body, object.info.size, object.info);
			objects.count++;
			objects.bytes += object.info.size;
		}
		const summary = { tables: Object.fromEntries(tables.map((t) => [t.table, t.rows])), objects };
		const columns = Object.fromEntries(tables.flatMap((t) => (t.columns ? [[t.table, t.columns]] : [])));
		await archive.finish({ ...summary, columns });
		return { ...summary, vanished, migrations: applied.length };
	} catch (error) {
		archive.abort(error as Error);
		throw error;
	} finally {
		await rm(spool, { recursive: true, force: true });
	}
}

/**
 * `atelier-backup-2026-11-25T14-03-09Z.tar.gz` (`.age` added when encrypted): sorts by date, safe in any file system
 * and header. Scheduled backups are `atelier-scheduled-…`: retention removes only those.
 */
export function backupFileName(now = new Date(), kind = 'backup', sealed = false): string {
	return `atelier-${kind}-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z.tar.gz${sealed ? '.age' : ''}`;
}
