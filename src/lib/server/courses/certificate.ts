/**
 * The certificat de réalisation's facts, from the course's own records: the programme, the modules completed among
 * the published ones (their durations summed: the duration realised), the first access and the last completion.
 * Who the learner works for, and when they first signed in, are the caller's (the training domain reads them).
 */
import type { Db } from '../db';
import { ConflictError } from '../errors';
import type { Storage } from '../storage';
import { certificatePdf } from './pdf-documents';
import * as queries from './queries';
import type { ReaderCache } from './reader-cache';
import { courseSettingsOf, progressOf } from './service';
import { signaturePng } from './signature';

export interface CertificateDeps {
	db: Db;
	readers: ReaderCache;
	storage: Storage;
}

export async function certificateFor(
	deps: CertificateDeps,
	learner: { id: string; name: string; employer: string | null; firstSignInAt: Date | null },
	now = new Date()
): Promise<Uint8Array> {
	const [progress, settings, completions] = await Promise.all([
		progressOf(deps.db, deps.readers, learner.id),
		courseSettingsOf(deps.db, deps.readers),
		queries.completionsOf(deps.db, learner.id)
	]);
	const done = progress.modules.filter((m) => m.completed);
	if (!done.length)
		throw new ConflictError('Le certificat de réalisation est disponible dès le premier module terminé.');
	const doneIds = new Set(done.map((m) => m.id));
	const dates = completions.filter((c) => doneIds.has(c.moduleId)).map((c) => c.completedAt.getTime());
	const firstCompletion = Math.min(...dates);
	const firstAccess = learner.firstSignInAt
		? Math.min(learner.firstSignInAt.getTime(), firstCompletion)
		: firstCompletion;
	return certificatePdf({
		learnerName: learner.name,
		employer: learner.employer,
		programme: settings.title,
		firstAccessAt: new Date(firstAccess),
		lastCompletedAt: new Date(Math.max(...dates)),
		minutesRealised: done.reduce((sum, m) => sum + m.durationMinutes, 0),
		issuedAt: now,
		signature: await signaturePng({ db: deps.db, storage: deps.storage })
	});
}
