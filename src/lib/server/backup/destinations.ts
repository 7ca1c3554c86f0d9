/**
 * Where scheduled backups go (docs/operations.md « Scheduled backups »): a folder (BACKUP_DIR) and/or an S3 bucket
 * of their own (BACKUP_S3_*, never the site's bucket or keys). Each lists the scheduled backups it holds, so that
 * retention removes only those: a backup someone wrote by hand or before an upgrade is never touched.
 */
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BackupConfig } from '../config';
import { S3Storage } from '../storage/s3';
import { scheduledBackupDate } from './retention';

export interface StoredBackup {
	name: string;
	at: Date;
}

export interface Destination {
	/** In the admin page's words: « dossier du serveur », « stockage S3 (bucket) ». */
	readonly label: string;
	/** Receives the finished, verified file (the folder takes it by a rename: it is the last one to receive it). */
	receive(file: string, name: string): Promise<void>;
	scheduledBackups(): Promise<StoredBackup[]>;
	remove(name: string): Promise<void>;
}

export class FolderDestination implements Destination {
	readonly label = 'dossier du serveur';
	constructor(readonly dir: string) {}

	async receive(file: string, name: string): Promise<void> {
		// The schedule writes beside it (same file system): the backup appears under its name at once, or not at all.
		await rename(file, path.join(this.dir, name));
	}

	async scheduledBackups(): Promise<StoredBackup[]> {
		const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT') return [];
			throw error;
		});
		return names.flatMap((name) => {
			const at = scheduledBackupDate(name);
			return at ? [{ name, at }] : [];
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

	async receive(file: string, name: string): Promise<void> {
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
			const at = scheduledBackupDate(name);
			if (at) found.push({ name, at });
		}
		return found;
	}

	async remove(name: string): Promise<void> {
		await this.bucket.delete(`${this.options.prefix}${name}`);
	}
}
