/**
 * A backup written to a file, whoever asks for it (`npm run backup`, the schedule, the backup before migrating):
 * under `<name>.partial` beside its final name, encrypted (encryption.ts), then read back whole — the manifest and
 * every entry's SHA-256 — and only then renamed. A file under a backup's name is therefore complete and readable;
 * a failure at any step removes the partial file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
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
		await rename(partial, file);
		return {
			summary,
			bytes: (await stat(file)).size,
			verified: readBack,
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
