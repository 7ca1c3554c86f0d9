/**
 * `npm run backup -- --verify <file>`: proves an archive restorable by restoring it — into a throw-away database in
 * memory and a throw-away folder, never the site's — after the first pass has checked its structure. Every table's
 * rows are counted as they go in and every entry's SHA-256 computed as it is read, both against the manifest; the
 * objects are counted too. Nothing of the site is opened, so it runs beside a server on the embedded database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db';
import { FsStorage } from '../storage';
import { InvalidArchiveError } from './archive';
import { restoreBackup, verifyBackup, type ArchiveSource, type VerifiedBackup } from './restore';

export interface VerificationSummary {
	tables: Record<string, number>;
	objects: number;
	appVersion: string;
	createdAt: string;
}

/** `checked`: the first pass's result when the caller made it already (the schedule reads its file back first). */
export async function verifyByRestoring(
	open: ArchiveSource,
	checked?: VerifiedBackup
): Promise<VerificationSummary> {
	const verified = checked ?? (await verifyBackup(open));
	const scratch = await mkdtemp(path.join(tmpdir(), 'atelier-verify-'));
	const database = openDatabase({ url: null });
	try {
		const storage = new FsStorage({
			root: path.join(scratch, 'storage'),
			// Not the archive's bucket name: nothing it says becomes a path.
			bucket: 'verify',
			origin: new URL('http://verify.invalid'),
			secret: verified.secret
		});
		const summary = await restoreBackup(
			open,
			verified,
			{ database, storage, dataDir: scratch },
			{ migrate: false }
		);
		if (summary.objects !== verified.manifest.objects.count)
			throw new InvalidArchiveError(
				`${summary.objects} objects restored, ${verified.manifest.objects.count} in the manifest`
			);
		return {
			tables: summary.tables,
			objects: summary.objects,
			appVersion: verified.header.appVersion,
			createdAt: verified.header.createdAt
		};
	} finally {
		await database.close();
		await rm(scratch, { recursive: true, force: true });
	}
}
