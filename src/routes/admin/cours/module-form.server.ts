import type { z } from 'zod';
import { moduleFilesFromForm, type moduleFormSchema } from '$lib/schemas/modules';
import { quizFromText, quizSchema, type Quiz } from '$lib/schemas/quiz';
import { ValidationError } from '$lib/server/errors';
import { fieldErrors } from '$lib/server/http/api';

/**
 * The editor's fields as the modules' API takes them: an empty slug follows the title, the file fields ('' for none,
 * the attachments as JSON text) read with the API's own rules, the quiz's text read into the API's quiz (none when
 * empty). A field that is not right is refused by name.
 */
export function moduleFromForm(data: z.infer<typeof moduleFormSchema>) {
	const errors: Record<string, string[]> = {};
	const files = moduleFilesFromForm.safeParse(data);
	if (!files.success)
		// The form's fields are the top-level ones: « attachments.0.title » is said of « attachments ».
		for (const [key, messages] of Object.entries(fieldErrors(files.error)))
			(errors[key.split('.')[0]!] ??= []).push(...messages);
	const quiz = quizOfForm(data.quiz, data.quizPassPercent);
	if ('error' in quiz) errors.quiz = [quiz.error];
	if (Object.keys(errors).length || !files.success || 'error' in quiz) throw new ValidationError(errors);
	const { quizPassPercent: _, ...fields } = data;
	return { ...fields, slug: data.slug || undefined, ...files.data, quiz: quiz.value };
}

function quizOfForm(text: string, passPercent: number): { value: Quiz | null } | { error: string } {
	if (!text.trim()) return { value: null };
	const read = quizFromText(text);
	if (read.error !== undefined) return { error: read.error };
	const quiz = quizSchema.safeParse({ passPercent, questions: read.questions });
	if (quiz.success) return { value: quiz.data };
	// « questions.2.choices » is said as the editor numbers it: « Question 3 ».
	const [issue] = quiz.error.issues;
	const at = issue?.path[0] === 'questions' && typeof issue.path[1] === 'number' ? issue.path[1] + 1 : null;
	return { error: at ? `Question ${at} : ${issue!.message}` : (issue?.message ?? 'Quiz invalide.') };
}
