/**
 * « A backup was made », recorded one way whoever made it: `npm run backup` (a file, or standard output) and a
 * download from the admin page. The run goes to backup_runs (the admin page's list, the dashboard's « last good
 * backup »), and — when the maker's trail is not written yet — the audit trail, in one transaction: never one
 * without the other. The schedule records its runs as they start and end, failures included (schedule.ts).
 */
import { recordAudit, type Actor } from '../audit';
import type { Db } from '../db';
import { rowsIn } from './archive';
import type { BackupSummary } from './backup';
import { recordBackupRun, type Verification } from './queries';

export interface BackupMade {
	how: 'command' | 'download';
	/** The file's name; null when it went to standard output. */
	fileName: string | null;
	/** Its size once written; null when nobody can tell (standard output). */
	bytes: number | null;
	/** Where it went, in the admin page's words. */
	destination: 'fichier' | 'sortie standard' | 'téléchargement';
	verified: Verification | null;
	encrypted: boolean;
	summary: BackupSummary;
	/**
	 * The trail's entry: who took the whole database. The page writes its own before any byte leaves (a download
	 * that never finishes must still show); the command's comes with the run.
	 */
	trail?: { actor: Actor; kind: 'backup.written_by_cli' };
}

export async function recordBackupMade(db: Db, made: BackupMade): Promise<void> {
	await db.transaction(async (tx) => {
		await recordBackupRun(tx, {
			trigger: made.how,
			fileName: made.fileName,
			bytes: made.bytes,
			destinations: [made.destination],
			verified: made.verified,
			encrypted: made.encrypted
		});
		if (made.trail)
			await recordAudit(tx, made.trail.actor, {
				kind: made.trail.kind,
				subjectType: 'backup',
				changes: {
					rows: { before: null, after: rowsIn(made.summary) },
					objects: { before: null, after: made.summary.objects.count },
					encrypted: { before: null, after: made.encrypted }
				}
			});
	});
}
