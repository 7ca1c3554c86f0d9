import { describe, expect, it } from 'vitest';
import { quizFromText, quizSchema, quizToText } from './quiz';

const TEXT = `Quel mortier pour un mur porteur ?
[x] Un mortier de ciment
[ ] Du plâtre
> Le plâtre ne tient pas à l’humidité.

Qu’est-ce qui se vérifie
au niveau ?
[X] L’aplomb
[] La couleur
[x] L’horizontalité`;

describe('the editor’s quiz text', () => {
	it('reads questions, right and wrong answers, several right ones and explanations, and writes them back', () => {
		const read = quizFromText(TEXT);
		expect(read.error).toBeUndefined();
		expect(read.questions).toEqual([
			{
				prompt: 'Quel mortier pour un mur porteur ?',
				explanation: 'Le plâtre ne tient pas à l’humidité.',
				choices: [
					{ text: 'Un mortier de ciment', correct: true },
					{ text: 'Du plâtre', correct: false }
				]
			},
			{
				prompt: 'Qu’est-ce qui se vérifie\nau niveau ?',
				choices: [
					{ text: 'L’aplomb', correct: true },
					{ text: 'La couleur', correct: false },
					{ text: 'L’horizontalité', correct: true }
				]
			}
		]);
		expect(quizFromText(quizToText({ questions: read.questions! }))).toEqual(read);
		expect(quizSchema.safeParse({ passPercent: 80, questions: read.questions }).success).toBe(true);
	});

	it('says which question is wrong and why', () => {
		expect(quizFromText('[x] Oui\n[ ] Non').error).toBe('Question 1 : écrivez l’énoncé avant les réponses.');
		expect(quizFromText('Q ?\n[x] A\n> Parce que\n[ ] B').error).toMatch(
			/^Question 1 : les réponses viennent avant/
		);
		expect(quizFromText('Q1 ?\n[x] A\n[ ] B\n\nQ2 ?\n[x] A\nune ligne perdue').error).toMatch(
			/^Question 2 : « une ligne perdue » suit les réponses/
		);
		// Windows line ends and blank lines made of spaces read the same.
		expect(quizFromText('Q ?\r\n[x] A\r\n[ ] B\r\n  \r\nR ?\r\n[x] C\r\n[ ] D').questions).toHaveLength(2);
		expect(quizFromText('').questions).toEqual([]);
	});
});
