/**
 * `npm run backup -- --verify <file>`: proves an archive restorable by restoring it — into a throw-away embedded
 * database in a throw-away folder, never the site's — after the first pass has checked its structure. On disk,
 * not in memory: a new database in memory is an initdb in this process (0.6–1.1 GB, db/index.ts); in a folder it
 * is the build's template unpacked. Every table's
 * rows are counted as they go in and every entry's SHA-256 computed as it is read, both against the manifest; the
 * objects are counted too. Nothing of the site is opened, so it runs beside a server on the embedded database.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db';
import { buildRoot } from '../install-root';
import { FsStorage } from '../storage';
import { InvalidArchiveError } from './archive';
import { restoreBackup, verifyBackup, type ArchiveSource, type VerifiedBackup } from './restore';
import type { WrittenBackup } from './file';

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
	const database = openDatabase({ url: null, pgliteDir: path.join(scratch, 'db'), purpose: 'verify' });
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

/**
 * The schedule's weekly proof, in a process of its own: the build's `backup --verify`, given the throw-away key
 * through its standard input (never a file). A restore opens an embedded database, whose WebAssembly memory never
 * shrinks: in the server's process it would stay for the server's life. Without a build (tests, `vite dev`), here.
 */
export async function verifyInItsOwnProcess(file: string, written: WrittenBackup): Promise<void> {
	const command = buildRoot ? path.join(buildRoot, 'backup.js') : null;
	if (!command || !existsSync(command) || !written.identity) {
		await verifyByRestoring(written.open, written.verified);
		return;
	}
	const child = spawn(process.execPath, [command, '--verify', file, '--identity', '-'], {
		stdio: ['pipe', 'ignore', 'pipe']
	});
	let said = '';
	child.stderr.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4_000)));
	child.stdin.on('error', () => {}); // a child gone early: its exit code says why
	child.stdin.end(`${written.identity}\n`);
	const code = await new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', resolve);
	});
	if (code !== 0)
		throw new InvalidArchiveError(
			`the restore into a throw-away database failed: ${said.trim().split('\n')[0] || `exit ${code}`}`
		);
}
