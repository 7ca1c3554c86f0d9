/**
 * A backup written to a file, whoever asks for it (`npm run backup`, the schedule, the backup before migrating):
 * under `<name>.partial` beside its final name, encrypted (encryption.ts), then read back whole — the manifest and
 * every entry's SHA-256 — and only then moved to its name, never over a file already there. A file under a backup's
 * name is therefore complete and readable, and it is the one that was written first; a failure at any step removes
 * the partial file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { link, rename, rm, stat } from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../private-files';
import { writeBackup, type BackupSource, type BackupSummary } from './backup';
import { openArchive, sealing, throwAwayIdentity } from './encryption';
import { verifyBackup, type ArchiveSource, type VerifiedBackup } from './restore';
import { InvalidArchiveError } from './archive';

export interface WrittenBackup {
	summary: BackupSummary;
	bytes: number;
	/** What reading it back found (header, manifest, secret): a restore of it need not read it a third time. */
	verified: VerifiedBackup;
	/** Reopens the written file as plain tar.gz — with the throw-away key while this object lives. */
	open: ArchiveSource;
	/**
	 * That throw-away key (null for a plain file), for a check made in another process (verify.ts, the weekly
	 * restore): handed to it through a pipe, never written anywhere.
	 */
	identity: string | null;
}

/**
 * `recipients`: the age public keys to encrypt to; null writes a plain tar.gz (`--plain`). The throw-away key the
 * file is also sealed to lives in this call's closure only: once the caller lets the result go, the server cannot
 * read a backup encrypted to someone else's keys.
 */
export async function writeBackupFile(
	source: BackupSource,
	file: string,
	recipients: readonly string[] | null
): Promise<WrittenBackup> {
	const partial = `${file}.partial`;
	try {
		const identity = recipients ? await throwAwayIdentity() : null;
		const seal = recipients && identity ? await sealing({ recipients }, { identity }) : undefined;
		const summary = await writeBackup(
			source,
			createWriteStream(partial, { mode: PRIVATE_FILE_MODE, flags: 'wx' }),
			{ seal }
		);
		const open: ArchiveSource = () =>
			openArchive(partial, () => createReadStream(partial), {
				identities: identity ? [identity] : [],
				allowPlain: !recipients
			});
		const readBack = await verifyBackup(open);
		if (
			readBack.manifest.objects.count !== summary.objects.count ||
			JSON.stringify(readBack.manifest.tables) !== JSON.stringify(summary.tables)
		)
			throw new InvalidArchiveError('the archive read back does not hold what was written');
		await moveWithoutOverwriting(partial, file);
		return {
			summary,
			bytes: (await stat(file)).size,
			verified: readBack,
			identity,
			open: () =>
				openArchive(file, () => createReadStream(file), {
					identities: identity ? [identity] : [],
					allowPlain: !recipients
				})
		};
	} catch (error) {
		await rm(partial, { force: true });
		throw error;
	}
}

/** Another file has the backup's name: nothing is overwritten (two sites in one folder, a clock set back). */
export class BackupNameTakenError extends Error {
	constructor(readonly file: string) {
		super(`Un fichier porte déjà le nom ${file} : la sauvegarde n’a pas été écrite par-dessus.`);
	}
}

/**
 * `from` becomes `to`, unless `to` exists: a hard link is created only where no file has the name (atomic, as
 * rename is, but exclusive), then `from` goes. A file system without hard links (some network shares) gets a check
 * then a rename.
 */
export async function moveWithoutOverwriting(from: string, to: string): Promise<void> {
	try {
		await link(from, to);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'EEXIST') throw new BackupNameTakenError(to);
		if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
		if (
			await stat(to).then(
				() => true,
				() => false
			)
		)
			throw new BackupNameTakenError(to);
		await rename(from, to);
		return;
	}
	await rm(from, { force: true });
}
