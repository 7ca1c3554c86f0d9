/**
 * The training as a funder pays for it (issue « Formation, part 1 »): the programme sheet's figures, questions to
 * the trainer, the satisfaction survey hot and cold, the certificat de réalisation and the proof file. The domain's
 * whole public surface, bound to the application's services (app.ts); the course itself is the courses domain's.
 */
import type { SatisfactionInput } from '$lib/schemas/training';
import { countRequest } from '../abuse';
import type { DbOrTx } from '../db';
import { appDeps } from '../app';
import * as courses from '../courses';
import { ConflictError, NotFoundError } from '../errors';
import { inBackground } from '../lifecycle';
import { mediaAnswer, type MediaRequest } from '../storage';
import * as programme from './programme';
import * as proofs from './proofs';
import * as queries from './queries';
import * as questions from './questions';
import * as satisfaction from './satisfaction';

const db = () => appDeps().db;
const questionDeps = (): questions.QuestionDeps => {
	const { db, storage, mail, config } = appDeps();
	return { db, storage, mail, origin: config.origin };
};
const delayDays = async () => (await courses.settings()).answerDelayDays;

// ——— The programme sheet ———

export const figures = () => programme.programmeFigures(db());
export { FIGURES_FROM_LEARNERS } from './programme';

// ——— Questions to the trainer ———

export { ATTACHMENT_MAX_BYTES, QUESTION_LIMIT } from './questions';
export type { Attachment, ThreadListEntry, ThreadView } from './questions';

/** The module a question is about, by id or slug: one published module (a member's pages show no other). */
async function moduleFor(idOrSlug: string) {
	const module = (await courses.list()).find(
		(m) => (m.id === idOrSlug || m.slug === idOrSlug) && m.published
	);
	if (!module) throw new NotFoundError('Module introuvable.');
	return module;
}

/** A member's question: the thread's id; the admins are told in the background once it is saved. */
export async function ask(
	member: questions.Reader,
	moduleIdOrSlug: string,
	text: string,
	attachment: questions.Attachment | null = null
): Promise<{ id: string }> {
	const module = await moduleFor(moduleIdOrSlug);
	const { id, tell } = await questions.askQuestion(
		questionDeps(),
		member,
		module,
		text,
		attachment,
		await delayDays()
	);
	inBackground(tell);
	return { id };
}
export async function reply(
	threadId: string,
	author: questions.Reader,
	text: string,
	attachment: questions.Attachment | null = null
) {
	const { tell } = await questions.postMessage(
		questionDeps(),
		threadId,
		author,
		text,
		attachment,
		await delayDays()
	);
	inBackground(tell);
}
export const thread = async (id: string, reader: { id: string; isAdmin: boolean }) =>
	questions.threadView(db(), id, reader, await delayDays());
export const threadsOf = async (userId: string) => questions.threadsOfMember(db(), userId, await delayDays());
export const threadsForAdmins = async (state: 'open' | 'answered' | 'all') =>
	questions.threadsForAdmins(db(), state, await delayDays());
/** Threads past the promised delay (the dashboard's « À faire »). */
export const countLateQuestions = async () => questions.countLate(db(), await delayDays());
/** Per member: questions asked and the average time to a first answer (`/admin/suivi`). */
export async function questionFigures(
	userIds: readonly string[]
): Promise<Map<string, { questions: number; firstAnswerSeconds: number | null }>> {
	if (userIds.length === 0) return new Map();
	const rows = await queries.questionFiguresByMember(db(), userIds);
	return new Map(
		rows.map((r) => [r.userId, { questions: r.questions, firstAnswerSeconds: r.firstAnswerSeconds }])
	);
}
/** An attachment, ranges and all, for a reader of its thread (404 for anyone else). */
export async function attachmentAnswer(
	request: MediaRequest,
	messageId: string,
	reader: { id: string; isAdmin: boolean }
) {
	const file = await questions.attachmentFor(db(), messageId, reader);
	const answer = await mediaAnswer(request, appDeps().storage, file.objectPath, {
		downloadName: file.name,
		cacheControl: 'private, no-store'
	});
	if (!answer) throw new NotFoundError('Pièce jointe introuvable.');
	return answer;
}
/** A learner's record (sign-ins, videos, quizzes, positioning, questions, surveys) in the caller's snapshot. */
export const learnerRecordIn = (database: DbOrTx, userId: string) =>
	queries.learnerRecordOf(database, userId);
/** In an account's deletion: its attachments, read before, leave the bucket once it committed. */
export const attachmentPathsOf = (database: DbOrTx, userId: string) =>
	queries.attachmentPathsOf(database, userId);
export async function deleteAttachmentFiles(objectPaths: string[]): Promise<void> {
	for (const objectPath of objectPaths) await appDeps().storage.delete(objectPath);
}

// ——— Satisfaction ———

const surveyQuestions = async () => satisfaction.surveyQuestionsOf(await courses.settings());
export const questionsOfSurvey = surveyQuestions;
export const hotDone = (userId: string) => satisfaction.hotDone(db(), userId);
/** The end-of-course survey: once the course is done (409 before), once (409 after). */
export async function answerHot(userId: string, answer: SatisfactionInput) {
	const progress = await courses.progressOf(userId);
	if (!progress.total || progress.completed < progress.total)
		throw new ConflictError(
			'Le questionnaire de fin de formation s’ouvre une fois tous les modules terminés.'
		);
	return satisfaction.answerHot(db(), userId, await surveyQuestions(), answer);
}
export const coldSurvey = (token: string) =>
	satisfaction.coldSurveyFor(db(), appDeps().config.signingSecret, token);
/** The cold survey's public form, per client address: 30 posts in 10 minutes (the links are unguessable all the same). */
export const COLD_SURVEY_LIMIT = { name: 'cold-survey', max: 30, windowSeconds: 600 };
export async function answerCold(token: string, answer: SatisfactionInput, address: string) {
	await countRequest(db(), COLD_SURVEY_LIMIT, address);
	return satisfaction.answerCold(
		db(),
		appDeps().config.signingSecret,
		token,
		await surveyQuestions(),
		answer
	);
}
/** The hourly job (maintenance.ts): cold surveys and their reminders due now. */
export async function sendColdSurveys(now?: Date) {
	const { db, mail, config } = appDeps();
	const { coldSurveyDays } = await courses.settings();
	return satisfaction.sendColdSurveys(
		{ db, mail, origin: config.origin, signingSecret: config.signingSecret },
		coldSurveyDays,
		now
	);
}
export const satisfactionResults = async () =>
	satisfaction.satisfactionResults(db(), await surveyQuestions());
export const satisfactionCsv = () => satisfaction.satisfactionCsv(db());

// ——— The certificat de réalisation and the proof file ———

async function learnerFacts(userId: string) {
	const member = await queries.memberOf(db(), userId);
	if (!member) throw new NotFoundError('Membre introuvable.');
	const [employer, signIns] = await Promise.all([
		queries.employerOf(db(), userId),
		queries.signInsOf(db(), userId)
	]);
	return { id: member.id, name: member.name, employer, firstSignInAt: signIns[0]?.at ?? null };
}

/** The learner's certificat, made now (409 before a first module is completed). */
export const certificate = async (userId: string) => courses.certificate(await learnerFacts(userId));

/** `/admin/suivi/{id}/preuves.zip`: every record of the learner, and their documents when they exist. */
export async function proofArchive(userId: string): Promise<Buffer> {
	const facts = await learnerFacts(userId);
	const [attestation, certificate] = await Promise.all([
		courses.attestationBytesOf(userId),
		courses.certificate(facts).catch(() => null)
	]);
	return proofs.proofArchive(db(), userId, { attestation, certificate });
}
export const proofTables = (userId: string) => proofs.proofTables(db(), userId);
