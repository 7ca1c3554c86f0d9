/**
 * What a training organisation writes and its learners send (issue « Formation, part 1 »): the programme sheet
 * (`GET/PUT /api/admin/course`, `/admin/cours`), questions to the trainer, the positioning's answers, the
 * satisfaction survey. Client-safe: the forms and the JSON routes share them.
 */
import { z } from 'zod';
import { dropInvalid } from './query';
import { lineText, multilineText, textBlocks } from './text';

const line = (label: string, max: number) =>
	lineText(`${label} : du texte.`)
		.trim()
		.max(max, `${label} : ${max.toLocaleString('fr-FR')} caractères au plus.`);
const paragraph = (label: string, max: number) =>
	multilineText(`${label} : du texte.`)
		.trim()
		.max(max, `${label} : ${max.toLocaleString('fr-FR')} caractères au plus.`);

/** A question of the positioning: a prompt and 2 to 8 choices, none right or wrong (it is not graded). */
export const positioningSchema = z
	.object({
		questions: z
			.array(
				z.object({
					prompt: line('Question de positionnement', 300).min(1, 'Chaque question a un intitulé.'),
					choices: z
						.array(z.object({ text: line('Choix', 200).min(1, 'Un choix est vide.') }))
						.min(2, 'Chaque question a au moins deux choix.')
						.max(8, 'Huit choix au plus par question.')
				})
			)
			.min(1, 'Le positionnement a au moins une question.')
			.max(20, 'Vingt questions au plus.')
	})
	.nullable();
export type PositioningInput = z.infer<typeof positioningSchema>;

export const SURVEY_QUESTION_COUNT = 5;
/** The five rated questions; null: the defaults. */
export const surveyQuestionsSchema = z
	.array(line('Question du questionnaire', 200).min(1, 'Une question du questionnaire est vide.'))
	.length(SURVEY_QUESTION_COUNT, `Le questionnaire a ${SURVEY_QUESTION_COUNT} questions.`)
	.nullable();

/**
 * The course's settings: the programme's name, « Ordre imposé », and the programme sheet. Every field is optional:
 * a PUT keeps what it does not name (an older client's, or one that sets one field).
 */
export const courseSettingsSchema = z.object({
	title: lineText('Indiquez le nom du programme.')
		.trim()
		.min(1, 'Indiquez le nom du programme.')
		.max(150, 'Nom du programme trop long (150 caractères au plus).')
		.optional(),
	sequential: z.boolean({ error: 'Ordre imposé : vrai ou faux.' }).optional(),
	/** Printed on the attestation (what the programme teaches). */
	objectives: paragraph('Objectifs', 1200).optional(),
	audience: paragraph('Public', 1000).optional(),
	prerequisites: paragraph('Prérequis', 1000).optional(),
	accessDelay: line('Délai d’accès', 300).optional(),
	price: line('Tarif', 200).optional(),
	accessibility: paragraph('Accessibilité', 1000).optional(),
	trainerName: line('Nom du formateur', 150).optional(),
	trainerQualification: paragraph('Qualification du formateur', 600).optional(),
	answerDelayDays: z
		.number({ error: 'Délai de réponse : un nombre de jours ouvrés.' })
		.int('Délai de réponse : un nombre entier de jours.')
		.min(1, 'Délai de réponse : 1 jour ouvré au moins.')
		.max(30, 'Délai de réponse : 30 jours ouvrés au plus.')
		.optional(),
	coldSurveyDays: z
		.number({ error: 'Questionnaire à froid : un nombre de jours.' })
		.int('Questionnaire à froid : un nombre entier de jours.')
		.min(0, 'Questionnaire à froid : 0 jour au moins.')
		.max(365, 'Questionnaire à froid : 365 jours au plus.')
		.optional(),
	positioning: positioningSchema.optional(),
	surveyQuestions: surveyQuestionsSchema.optional()
});
export type CourseSettingsInput = z.infer<typeof courseSettingsSchema>;

/**
 * The positioning as the admin's form writes it: a question a block, its prompt on the first line, each choice on a
 * line of its own starting with « - »; blocks separated by an empty line. Empty: no positioning.
 */
export function positioningFromText(text: string): PositioningInput {
	const blocks = textBlocks(text);
	if (!blocks.length) return null;
	return {
		questions: blocks.map(([prompt, ...choices]) => ({
			prompt: prompt!.replace(/^[-*]\s*/, ''),
			choices: choices.map((c) => ({ text: c.replace(/^[-*]\s*/, '') }))
		}))
	};
}

export function positioningToText(positioning: PositioningInput): string {
	if (!positioning) return '';
	return positioning.questions
		.map((q) => [q.prompt, ...q.choices.map((c) => `- ${c.text}`)].join('\n'))
		.join('\n\n');
}

const formNumber = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;

/** The same, from `/admin/cours`'s form: an unticked box sends nothing; the positioning and survey as text. */
export const courseSettingsFormSchema = courseSettingsSchema.extend({
	title: courseSettingsSchema.shape.title.unwrap(),
	sequential: z.preprocess((value) => value === 'on', z.boolean()),
	answerDelayDays: z.preprocess(formNumber, courseSettingsSchema.shape.answerDelayDays.unwrap()),
	coldSurveyDays: z.preprocess(formNumber, courseSettingsSchema.shape.coldSurveyDays.unwrap()),
	positioning: z.preprocess(
		(value) => (typeof value === 'string' ? positioningFromText(value) : value),
		positioningSchema
	),
	surveyQuestions: z.preprocess(
		(value) =>
			typeof value === 'string'
				? value.trim()
					? value
							.replace(/\r\n?/g, '\n')
							.split('\n')
							.map((l) => l.trim())
							.filter(Boolean)
					: null
				: value,
		surveyQuestionsSchema
	)
});

/** A question, or a message in a thread (Markdown, rendered by the site's one renderer). */
export const questionText = multilineText('Écrivez votre message.')
	.trim()
	.min(1, 'Écrivez votre message.')
	.max(5000, 'Message trop long (5 000 caractères au plus).');

/** `POST /api/cours/questions`: the module by id or slug. */
export const questionCreateSchema = z.object({
	module: lineText('Indiquez le module.').trim().min(1, 'Indiquez le module.').max(200, 'Module inconnu.'),
	text: questionText
});
export const questionMessageSchema = z.object({ text: questionText });

export const positioningAnswersSchema = z.object({
	answers: z
		.array(
			z
				.array(z.number().int().min(0).max(7), { error: 'Une réponse : des numéros de choix.' })
				.min(1, 'Répondez à chaque question.')
				.max(8),
			{ error: 'Répondez à chaque question.' }
		)
		.max(20)
});

const rating = z
	.number({ error: 'Une note de 1 à 5.' })
	.int('Une note de 1 à 5.')
	.min(1, 'Une note de 1 à 5.')
	.max(5, 'Une note de 1 à 5.');

/** The survey: five ratings and a comment, or « Plus tard » (`{ skip: true }`, the hot survey only). */
export const satisfactionSchema = z.union([
	z.object({
		ratings: z.array(rating, { error: 'Cinq notes de 1 à 5.' }).length(5, 'Cinq notes de 1 à 5.'),
		comment: paragraph('Commentaire', 3000).optional()
	}),
	z.object({ skip: z.literal(true) })
]);
export type SatisfactionInput = z.infer<typeof satisfactionSchema>;

/** The follow-up's list (/admin/suivi), as its query string spells it: `?q=` a name or an e-mail, the stuck only. */
export const learnersQuerySchema = z.object({
	q: dropInvalid(lineText().trim().max(100)),
	filtre: dropInvalid(z.enum(['bloques'])),
	page: dropInvalid(z.coerce.number().int().min(1).max(100_000))
});
