/**
 * The positioning at entry (issue « Formation, part 1 », point 3; Qualiopi's indicator 8): where a learner starts,
 * asked once before module 1 opens. Not graded: the trainer reads the answers on the learner's page. The questions
 * as asked are kept beside the answers, so that a later edit of the questionnaire does not change what was said.
 */
import type { Db, DbOrTx } from '../db';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import * as queries from './queries';
import type { ReaderCache } from './reader-cache';
import { courseSettingsOf } from './settings';

/** What `/cours/positionnement` shows: the questions, and the member's answers once given. */
export async function positioningPageOf(db: DbOrTx, readers: ReaderCache, userId: string) {
	const [settings, answered] = await Promise.all([
		courseSettingsOf(db, readers),
		queries.positioningAnswersOf(db, userId)
	]);
	return {
		questions: answered?.questions ?? settings.positioning?.questions ?? null,
		answers: answered?.answers ?? null,
		answeredAt: answered?.answeredAt ?? null
	};
}

/**
 * Records the member's answers, once (409 after): one list of choice indexes per question, each index one of that
 * question's choices (400 naming the question otherwise). Opens module 1 at once, here and on the other instances.
 */
export async function answerPositioning(
	db: Db,
	readers: ReaderCache,
	userId: string,
	answers: number[][]
): Promise<void> {
	const settings = await courseSettingsOf(db, readers);
	const questions = settings.positioning?.questions;
	if (!questions) throw new NotFoundError('Ce parcours ne demande pas de positionnement.');
	const errors: Record<string, string[]> = {};
	questions.forEach((question, i) => {
		const chosen = answers[i];
		if (!chosen?.length) errors[`answers.${i}`] = [`Répondez à la question ${i + 1}.`];
		else if (chosen.some((c) => c >= question.choices.length) || new Set(chosen).size !== chosen.length)
			errors[`answers.${i}`] = [`Question ${i + 1} : choix inconnu.`];
	});
	if (answers.length > questions.length) errors.answers = ['Plus de réponses que de questions.'];
	if (Object.keys(errors).length) throw new ValidationError(errors);
	const inserted = await queries.insertPositioningAnswers(db, {
		userId,
		questions,
		answers: answers.map((chosen) => [...chosen].sort((a, b) => a - b))
	});
	if (!inserted) throw new ConflictError('Vous avez déjà répondu au positionnement.');
	await readers.progressChanged(userId);
}

/** The member's answers as the trainer reads them: each question with the choices ticked; null when none. */
export async function positioningReportOf(db: DbOrTx, userId: string) {
	const row = await queries.positioningAnswersOf(db, userId);
	if (!row) return null;
	return {
		answeredAt: row.answeredAt,
		questions: row.questions.map((q, i) => ({
			prompt: q.prompt,
			chosen: (row.answers[i] ?? []).map((c) => q.choices[c]?.text ?? `choix ${c + 1}`)
		}))
	};
}
