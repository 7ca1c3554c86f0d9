/**
 * The programme sheet `/formation` shows (issue « Formation, part 1 », point 1), as Qualiopi's indicator 1 lists
 * what a training offer publishes, and the figures of indicator 2 computed live from the tables — each shown only
 * from 5 learners on, so that no figure tells of one person.
 */
import type { DbOrTx } from '../db';
import * as queries from './queries';

/** Below this many learners, no result is published (one learner's score would be theirs). */
export const FIGURES_FROM_LEARNERS = 5;

export interface ProgrammeFigures {
	learners: number;
	/** 0–100, or null: hidden below 5 learners (or nothing to compute). */
	completionRate: number | null;
	quizAverage: number | null;
	satisfactionAverage: number | null;
	satisfactionResponseRate: number | null;
}

export async function programmeFigures(db: DbOrTx): Promise<ProgrammeFigures | null> {
	const f = await queries.programmeFigures(db);
	if (f.learners < FIGURES_FROM_LEARNERS) return null;
	const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 100) : null);
	return {
		learners: f.learners,
		completionRate: f.published ? percent(f.finished, f.learners) : null,
		quizAverage: f.quizAverage === null ? null : Math.round(f.quizAverage),
		satisfactionAverage: f.hotAverage === null ? null : Math.round(f.hotAverage * 10) / 10,
		satisfactionResponseRate: percent(f.hotAnswers, f.finished)
	};
}
