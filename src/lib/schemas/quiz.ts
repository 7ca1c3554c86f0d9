/**
 * A module's quiz (issue « Learning, part 3 »), as the modules' API takes it and as the editor writes it. Client-safe:
 * the editor checks its text with the same rules as the server.
 */
import { z } from 'zod';
import { lineText, multilineText, textBlocks } from './text';

export const QUIZ_QUESTIONS_MAX = 20;
export const QUIZ_CHOICES_MIN = 2;
export const QUIZ_CHOICES_MAX = 6;
export const QUIZ_PASS_PERCENT_DEFAULT = 80;

const choice = z.object(
	{
		text: lineText('Chaque réponse a un texte.')
			.trim()
			.min(1, 'Chaque réponse a un texte.')
			.max(300, 'Réponse trop longue (300 caractères au plus).'),
		correct: z.boolean({ error: 'correct : vrai ou faux.' })
	},
	{ error: 'Réponse : { text, correct }.' }
);

const question = z.object(
	{
		prompt: multilineText()
			.trim()
			.min(1, 'Chaque question a un énoncé.')
			.max(1000, 'Énoncé trop long (1 000 caractères au plus).'),
		explanation: multilineText()
			.trim()
			.max(2000, 'Explication trop longue (2 000 caractères au plus).')
			.optional(),
		choices: z
			.array(choice, { error: 'Réponses : une liste de { text, correct }.' })
			.min(QUIZ_CHOICES_MIN, `Chaque question a ${QUIZ_CHOICES_MIN} réponses au moins.`)
			.max(QUIZ_CHOICES_MAX, `${QUIZ_CHOICES_MAX} réponses au plus par question.`)
			.refine((choices) => choices.some((c) => c.correct), 'Chaque question a au moins une bonne réponse.')
	},
	{ error: 'Question : { prompt, explanation?, choices }.' }
);

export const quizSchema = z.object(
	{
		passPercent: z
			.number({ error: 'Seuil de réussite : un pourcentage.' })
			.int('Seuil de réussite : un pourcentage entier.')
			.min(1, 'Seuil de réussite : entre 1 et 100 %.')
			.max(100, 'Seuil de réussite : entre 1 et 100 %.'),
		questions: z
			.array(question, { error: 'Questions : une liste.' })
			.min(1, 'Un quiz a au moins une question.')
			.max(QUIZ_QUESTIONS_MAX, `${QUIZ_QUESTIONS_MAX} questions au plus.`)
	},
	{ error: 'Quiz : { passPercent, questions } ou null.' }
);

export type Quiz = z.infer<typeof quizSchema>;

/**
 * The editor's text for a quiz, one question per block (blank lines between):
 *
 *     Quel mortier pour un mur porteur ?
 *     [x] Un mortier de ciment
 *     [ ] Du plâtre
 *     > Le plâtre ne tient pas à l’humidité.
 *
 * The lines before the first choice are the question, `[x]` a right answer, `[ ]` a wrong one, `>` the explanation
 * shown after an attempt. Written back from a quiz by `quizToText`, read by `quizFromText`.
 */
export function quizToText(quiz: Pick<Quiz, 'questions'> | null): string {
	if (!quiz) return '';
	return quiz.questions
		.map((q) =>
			[
				q.prompt,
				...q.choices.map((c) => `${c.correct ? '[x]' : '[ ]'} ${c.text}`),
				...(q.explanation ? q.explanation.split('\n').map((line) => `> ${line}`) : [])
			].join('\n')
		)
		.join('\n\n');
}

const CHOICE_LINE = /^\[([ xX]?)\]\s*(.*)$/;

/** The questions of the editor's text, or the first problem found, naming its question. */
export function quizFromText(
	text: string
): { questions: Quiz['questions']; error?: undefined } | { error: string; questions?: undefined } {
	const blocks = textBlocks(text);
	const questions: { prompt: string; explanation?: string; choices: { text: string; correct: boolean }[] }[] =
		[];
	for (const [index, lines] of blocks.entries()) {
		const prompt: string[] = [];
		const explanation: string[] = [];
		const choices: { text: string; correct: boolean }[] = [];
		for (const line of lines) {
			const choiceLine = CHOICE_LINE.exec(line);
			if (choiceLine) {
				if (explanation.length)
					return { error: `Question ${index + 1} : les réponses viennent avant l’explication (>).` };
				choices.push({ text: choiceLine[2]!.trim(), correct: choiceLine[1]!.toLowerCase() === 'x' });
			} else if (line.startsWith('>')) explanation.push(line.slice(1).trim());
			else if (choices.length)
				return {
					error: `Question ${index + 1} : « ${line.slice(0, 60)} » suit les réponses ; commencez-la par [x] ou [ ], ou par > pour l’explication.`
				};
			else prompt.push(line);
		}
		if (!prompt.length) return { error: `Question ${index + 1} : écrivez l’énoncé avant les réponses.` };
		questions.push({
			prompt: prompt.join('\n'),
			choices,
			...(explanation.length ? { explanation: explanation.join('\n') } : {})
		});
	}
	return { questions };
}

/** What a member sees of a question before sending an attempt: no right answer, no explanation. */
export interface QuizQuestionView {
	prompt: string;
	choices: string[];
	/** Several right answers: « cochez toutes les bonnes réponses » (boxes instead of one choice). */
	multiple: boolean;
}

/** A graded attempt, as the member sees it: right or wrong per question, with its explanation. */
export interface QuizResult {
	score: number;
	passed: boolean;
	passPercent: number;
	correct: number;
	total: number;
	questions: { right: boolean; explanation: string | null; chosen: number[] }[];
}
