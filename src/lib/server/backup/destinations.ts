/**
 * Where scheduled backups go (docs/operations.md « Scheduled backups »): a folder (BACKUP_DIR) and/or an S3 bucket
 * of their own (BACKUP_S3_*, never the site's bucket or keys). Each lists the scheduled backups it holds, with the
 * installation each names, so that retention removes only this installation's: a backup someone wrote by hand,
 * before an upgrade, or by another site given the same place is never touched. Nothing is written over a file.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BackupConfig } from '../config';
import { S3Storage } from '../storage/s3';
import { BackupNameTakenError, moveWithoutOverwriting } from './file';
import { scheduledBackupOf, type ScheduledName } from './retention';

export interface StoredBackup extends ScheduledName {
	name: string;
}

export interface Destination {
	/** In the admin page's words: « dossier du serveur », « stockage S3 (bucket) ». */
	readonly label: string;
	/** Refuses (BackupNameTakenError) when a file already has the name: checked everywhere before anything is sent. */
	assertFree(name: string): Promise<void>;
	/** Receives the finished, verified file (the folder takes it by a rename: it is the last one to receive it). */
	receive(file: string, name: string): Promise<void>;
	scheduledBackups(): Promise<StoredBackup[]>;
	remove(name: string): Promise<void>;
}

export class FolderDestination implements Destination {
	readonly label = 'dossier du serveur';
	constructor(readonly dir: string) {}

	async assertFree(name: string): Promise<void> {
		if (
			await stat(path.join(this.dir, name)).then(
				() => true,
				() => false
			)
		)
			throw new BackupNameTakenError(name);
	}

	async receive(file: string, name: string): Promise<void> {
		// The schedule writes beside it (same file system): the backup appears under its name at once, or not at
		// all, and never in place of another file.
		await moveWithoutOverwriting(file, path.join(this.dir, name));
	}

	async scheduledBackups(): Promise<StoredBackup[]> {
		const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') return [];
			throw error;
		});
		return names.flatMap((name) => {
			const scheduled = scheduledBackupOf(name);
			return scheduled ? [{ name, ...scheduled }] : [];
		});
	}

	async remove(name: string): Promise<void> {
		await rm(path.join(this.dir, name), { force: true });
	}
}

export class S3Destination implements Destination {
	readonly label: string;
	private readonly bucket: S3Storage;
	constructor(private readonly options: NonNullable<BackupConfig['s3']>) {
		this.label = `stockage S3 (${options.bucket})`;
		this.bucket = new S3Storage(options);
	}

	async assertFree(name: string): Promise<void> {
		if (await this.bucket.stat(`${this.options.prefix}${name}`)) throw new BackupNameTakenError(name);
	}

	async receive(file: string, name: string): Promise<void> {
		// A check, not a conditional write: not every S3 server takes `If-None-Match: *` (s3rver, older Garage).
		// Names carry the installation and the slot, which one instance at a time backs up: the check is enough.
		await this.assertFree(name);
		await this.bucket.putFile(`${this.options.prefix}${name}`, file, {
			contentType: 'application/octet-stream',
			cacheControl: 'no-store'
		});
	}

	async scheduledBackups(): Promise<StoredBackup[]> {
		const found: StoredBackup[] = [];
		for await (const key of this.bucket.list()) {
			if (!key.startsWith(this.options.prefix)) continue;
			const name = key.slice(this.options.prefix.length);
			const scheduled = scheduledBackupOf(name);
			if (scheduled) found.push({ name, ...scheduled });
		}
		return found;
	}

	async remove(name: string): Promise<void> {
		await this.bucket.delete(`${this.options.prefix}${name}`);
	}
}
