/**
 * A module's quiz: the questions as a member sees them (never the answers), an attempt counted before it is
 * marked (one per 30 seconds), the best score kept, and the module completed when it passes.
 */
import { ABUSE_WAITS } from '../config';
import type { Db, DbOrTx } from '../db';
import { NotFoundError, ValidationError } from '../errors';
import { countRequest, type Limit } from '../abuse';
import type { QuizQuestionView, QuizResult } from '$lib/schemas/quiz';
import type { ModuleQuiz } from '../db/schema';
import * as queries from './queries';
import type { ReaderCache } from './reader-cache';
import { moduleToActOn, publishedModule } from './progress';

/** One attempt per 30 seconds per member and module, spent before the answers are graded. */
export const QUIZ_ATTEMPT_LIMIT: Limit = {
	name: 'quiz-attempt',
	max: 1,
	windowSeconds: ABUSE_WAITS.quizRetrySeconds
};

/** What the module page shows of its quiz: the questions without their answers, and the last attempt's outcome. */
export interface QuizPage {
	passPercent: number;
	questions: QuizQuestionView[];
	last: { score: number; passed: boolean; at: Date } | null;
	passed: boolean;
}

const questionViews = (quiz: ModuleQuiz): QuizQuestionView[] =>
	quiz.questions.map((q) => ({
		prompt: q.prompt,
		choices: q.choices.map((c) => c.text),
		multiple: q.choices.filter((c) => c.correct).length > 1
	}));

export async function quizPageOf(
	db: DbOrTx,
	moduleId: string,
	quiz: ModuleQuiz,
	userId: string
): Promise<QuizPage> {
	const attempts = await queries.quizAttemptsOf(db, userId, moduleId);
	const last = attempts[0];
	return {
		passPercent: quiz.passPercent,
		questions: questionViews(quiz),
		last: last ? { score: last.score, passed: last.passed, at: last.createdAt } : null,
		passed: attempts.some((a) => a.passed)
	};
}

/**
 * The choices sent for each question (form fields `q0`, `q1`…: one value for a single answer, several for boxes),
 * as indexes into its choices; a question left blank is answered by nothing (and wrong). A value that names no
 * choice of its question, a field of no question, or too many values are the client's mistake: 400, before
 * anything is spent.
 */
export function quizAnswersOf(form: FormData, quiz: ModuleQuiz): number[][] {
	const known = new Set(quiz.questions.map((_, index) => `q${index}`));
	const stray = [...form.keys()].find((key) => /^q\d/.test(key) && !known.has(key));
	if (stray) throw new ValidationError({ [stray]: ['Cette question n’est pas dans le quiz.'] });
	return quiz.questions.map((question, index) => {
		const values = form.getAll(`q${index}`);
		const chosen = values.map((value) =>
			typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : -1
		);
		if (chosen.some((c) => c < 0 || c >= question.choices.length) || new Set(chosen).size !== chosen.length)
			throw new ValidationError({ [`q${index}`]: ['Réponse inconnue : rechargez la page.'] });
		return chosen.sort((a, b) => a - b);
	});
}

/**
 * Grades an attempt at a module's quiz: the member's place in the limit is taken first (a burst of attempts grades
 * one), then the answers are graded against the module as saved now; each question is right when exactly its
 * right choices are chosen. The attempt is kept; passing completes the module.
 */
export async function answerQuiz(
	db: Db,
	readers: ReaderCache,
	reader: { id: string; isAdmin: boolean },
	slug: string,
	form: FormData,
	retrySeconds = QUIZ_ATTEMPT_LIMIT.windowSeconds
): Promise<QuizResult> {
	await moduleToActOn(db, readers, reader, slug);
	const module = reader.isAdmin ? await queries.moduleBySlug(db, slug) : await publishedModule(db, slug);
	if (!module?.quiz) throw new NotFoundError('Ce module n’a pas de quiz.');
	const quiz = module.quiz;
	const answers = quizAnswersOf(form, quiz);
	await countRequest(db, { ...QUIZ_ATTEMPT_LIMIT, windowSeconds: retrySeconds }, `${reader.id}:${module.id}`);
	const questions = quiz.questions.map((question, index) => {
		const right = question.choices.flatMap((choice, at) => (choice.correct ? [at] : []));
		const chosen = answers[index]!;
		return {
			right: chosen.length === right.length && chosen.every((c, at) => c === right[at]),
			explanation: question.explanation ?? null,
			chosen
		};
	});
	const correct = questions.filter((q) => q.right).length;
	const score = Math.floor((correct / questions.length) * 100);
	const passed = score >= quiz.passPercent;
	await db.transaction(async (tx) => {
		await queries.insertQuizAttempt(tx, {
			userId: reader.id,
			moduleId: module.id,
			score,
			correct,
			total: questions.length,
			passed,
			answers
		});
		if (passed && module.published) await queries.markComplete(tx, reader.id, module.id);
	});
	if (passed) await readers.progressChanged(reader.id);
	return { score, passed, passPercent: quiz.passPercent, correct, total: questions.length, questions };
}
