/**
 * « Publier le … à … » (issue « Content, part 2 », point 4): a draft goes live by itself at a later time. The
 * schedule is on the entry (one at a time); at its time the draft as it is then is published — every rule checked
 * again, by whoever scheduled it — within a minute (`publishDue`, run every half-minute on every instance by
 * maintenance.ts), and once: the due entry is locked `FOR UPDATE SKIP LOCKED` and its schedule cleared in the same
 * transaction as the publish, so another instance looking at the same minute finds nothing, and a crash in between
 * leaves it to the next run. A draft that no longer passes the checks at its time is not published: the schedule is
 * dropped, the audit trail and the log say why, and the draft waits in the editor.
 */
import { publishProblems } from '$lib/content/checks';
import { modelOf, type EntryKind, type Fields } from '$lib/content/model';
import { recordAudit, type AdminActor } from '../audit';
import type { Db } from '../db';
import { NotFoundError, ValidationError } from '../errors';
import { log } from '../log';
import * as queries from './queries';
import { parisDay, publishFields, staleError, type ContentDeps } from './service';

/** How far ahead a publish may be scheduled. */
export const SCHEDULE_MAX_DAYS = 366;

/** Schedules the draft at `version` to go live at `at` (202); 400 when it could not be published, 409 when stale. */
export async function schedulePublish(
	db: Db,
	id: string,
	version: number,
	at: Date,
	admin: AdminActor,
	now = new Date()
) {
	if (at.getTime() <= now.getTime())
		throw new ValidationError(
			{ at: ['at : une heure à venir (pour publier maintenant, ne l’indiquez pas).'] },
			'La date de publication est passée.'
		);
	if (at.getTime() > now.getTime() + SCHEDULE_MAX_DAYS * 86_400_000)
		throw new ValidationError(
			{ at: [`at : dans l’année qui vient (${SCHEDULE_MAX_DAYS} jours au plus).`] },
			'La date de publication est trop lointaine.'
		);
	const row = await queries.entryById(db, id);
	if (!row) throw new NotFoundError('Page introuvable.');
	if (row.draft === null)
		throw new ValidationError(
			{ draft: ['Aucune modification à publier.'] },
			'Aucune modification à publier.'
		);
	// What would stop it now stops it being scheduled: the admin hears it while they can fix it.
	const problems = publishProblems(modelOf(id, row.kind as EntryKind).fields, row.draft as Fields);
	if (Object.keys(problems).length)
		throw new ValidationError(problems, 'Certains champs empêchent la publication : rien n’est programmé.');
	const next = await db.transaction(async (tx) => {
		const moved = await queries.setSchedule(tx, id, version, at, admin.id);
		if (moved !== null)
			await recordAudit(tx, admin, {
				kind: 'content.publish_scheduled',
				subjectType: 'content',
				subjectId: id,
				changes: { scheduledFor: { before: row.scheduledAt?.toISOString() ?? null, after: at.toISOString() } }
			});
		return moved;
	});
	if (next === null) return staleError(db, id);
	return { version: next, scheduledAt: at.toISOString() };
}

/** `DELETE …/schedule`: the draft stays a draft; 404 when nothing was scheduled. */
export async function cancelSchedule(db: Db, id: string, admin: AdminActor): Promise<void> {
	const cancelled = await db.transaction(async (tx) => {
		const at = await queries.clearSchedule(tx, id);
		if (at)
			await recordAudit(tx, admin, {
				kind: 'content.schedule_cancelled',
				subjectType: 'content',
				subjectId: id,
				changes: { scheduledFor: { before: at.toISOString(), after: null } }
			});
		return at;
	});
	if (!cancelled) throw new NotFoundError('Aucune publication n’est programmée pour cette page.');
}

/** What was published or dropped by one run. */
export interface DueRun {
	published: string[];
	failed: string[];
}

/** Publishes every entry due by `now`, each once; then purges what changed. */
export async function publishDue(deps: ContentDeps, now = new Date()): Promise<DueRun> {
	const run: DueRun = { published: [], failed: [] };
	// Bounded: a run does what is due, a few at most in practice, never loops on an entry it could not clear.
	for (let turn = 0; turn < 100; turn++) {
		const outcome = await deps.db.transaction(async (tx) => {
			const row = await queries.lockDue(tx, now);
			if (!row) return null;
			const scheduledFor = await queries.clearSchedule(tx, row.id);
			const email = row.scheduledBy ? await queries.adminEmail(tx, row.scheduledBy) : null;
			const reason =
				row.draft === null
					? 'plus de brouillon à publier'
					: !row.scheduledBy || !email
						? 'le compte qui l’a programmée n’existe plus'
						: null;
			const admin = { id: row.scheduledBy!, email: email! };
			if (!reason)
				try {
					// A savepoint: a draft refused by the checks rolls back its publish, not the schedule's end.
					const published = await tx.transaction((inner) =>
						publishFields(
							inner,
							row,
							row.draft as Fields,
							admin,
							{ kind: 'content.published', scheduledFor: scheduledFor ?? undefined },
							deps.today ?? parisDay,
							false
						)
					);
					return { id: row.id, paths: published.paths };
				} catch (error) {
					if (!(error instanceof ValidationError)) throw error;
					return failed(tx, row.id, admin, Object.keys(error.fieldErrors).join(', '));
				}
			return failed(tx, row.id, row.scheduledBy && email ? admin : null, reason);
		});
		if (!outcome) break;
		if ('paths' in outcome) {
			run.published.push(outcome.id);
			await deps.purge(outcome.paths);
		} else run.failed.push(outcome.id);
	}
	return run;
}

async function failed(
	tx: Parameters<Parameters<Db['transaction']>[0]>[0],
	id: string,
	admin: AdminActor | null,
	reason: string
): Promise<{ id: string; reason: string }> {
	log.warn('content: a scheduled publish did not happen', { entry: id, reason });
	await recordAudit(tx, admin ?? { id: null, email: 'publication programmée' }, {
		kind: 'content.scheduled_publish_failed',
		subjectType: 'content',
		subjectId: id,
		changes: { reason: { before: null, after: reason } }
	});
	return { id, reason };
}
