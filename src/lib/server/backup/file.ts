/**
 * A backup written to a file, whoever asks for it (`npm run backup`, the schedule, the backup before migrating):
 * under `<name>.partial` beside its final name, encrypted (encryption.ts), and checked whole as it is written — every
 * byte that goes to the file goes through a reader too, which decrypts it with a throw-away key, unpacks it and
 * checks the manifest and every entry's SHA-256; the file's size is then compared with what was checked — and only
 * then moved to its name, never over a file already there. A file under a backup's name is therefore complete and
 * readable, and it is the one that was written first; a failure at any step removes the partial file.
 *
 * Checked while written, not read again afterwards: reading the file back doubled the time a backup takes beyond
 * pg_dump's (issue « Years of use », point 4), and read from the page cache it proved no more than the bytes as
 * they were handed to the file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { link, rename, rm, stat } from 'node:fs/promises';
import { PassThrough, Writable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../private-files';
import { writeBackup, type BackupSource, type BackupSummary } from './backup';
import { openArchive, openSealedStream, sealing, throwAwayIdentity } from './encryption';
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
		const copy = new PassThrough({ highWaterMark: 1024 * 1024 });
		const checking = verifyBackup(() => (identity ? openSealedStream(copy, identity) : copy));
		// Settled by the end of the write; meanwhile, a failure of the check stops the write (below).
		checking.catch(() => {});
		const output = createWriteStream(partial, { mode: PRIVATE_FILE_MODE, flags: 'wx' });
		const written = bothOf(output, copy);
		let checkFailure: Error | null = null;
		checking.then(
			() => copy.resume(),
			(error: Error) => {
				checkFailure = error;
				written.destroy(error);
			}
		);
		let fileFailure: Error | null = null;
		output.once('error', (error) => (fileFailure = error));
		let summary: BackupSummary;
		try {
			summary = await writeBackup(source, written, { seal });
		} catch (error) {
			copy.destroy(error as Error);
			await checking.catch(() => {});
			// The cause, not what it did to the streams downstream of it (« already finalized or destroyed »).
			throw fileFailure ?? checkFailure ?? error;
		}
		const readBack = await checking;
		if (
			readBack.manifest.objects.count !== summary.objects.count ||
			JSON.stringify(readBack.manifest.tables) !== JSON.stringify(summary.tables)
		)
			throw new InvalidArchiveError('the archive checked as written does not hold what was written');
		if ((await stat(partial)).size !== written.bytes)
			throw new InvalidArchiveError('the file holds other bytes than were checked as it was written');
		await moveWithoutOverwriting(partial, file);
		return {
			summary,
			bytes: written.bytes,
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

/**
 * A stream that writes each chunk to `file` and to `check`, and asks for more once both took it; ends both, and is
 * finished once the file is (closed, every byte handed to the system). Counts the bytes.
 */
function bothOf(file: Writable, check: Writable): Writable & { bytes: number } {
	const both = new Writable({
		highWaterMark: 1024 * 1024,
		write(chunk: Buffer, _encoding, callback) {
			both.bytes += chunk.length;
			let waiting = 1;
			const taken = () => {
				if (--waiting === 0) callback();
			};
			for (const stream of [file, check])
				if (!stream.write(chunk)) {
					waiting++;
					stream.once('drain', taken);
				}
			taken();
		},
		final(callback) {
			check.end();
			file.end();
			file.once('close', () => callback());
		},
		// Called after a normal finish too (autoDestroy): only a failure stops the file and the check.
		destroy(error, callback) {
			if (error) {
				file.destroy(error);
				check.destroy(error);
			}
			callback(error);
		}
	}) as Writable & { bytes: number };
	both.bytes = 0;
	// A full disk, a file that could not be opened: the write fails, whatever the checker does.
	file.once('error', (error) => both.destroy(error));
	return both;
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
