/**
 * Learners heard, hot and cold (issue « Formation, part 1 », point 4; Qualiopi's indicator 30): five questions
 * rated 1 to 5 and a comment, asked at the end of the course on `/bilan` (« Plus tard » skips it, recorded), and
 * again `coldSurveyDays` after the member finished, by e-mail, through a signed link that works signed out, once,
 * for 30 days, with one reminder a week later. Exactly one of each per member whatever the number of instances:
 * each send is claimed by a row before it goes.
 */
import { csvStream } from '../csv';
import type { Db, DbOrTx } from '../db';
import { ConflictError, GoneError, NotFoundError, ValidationError } from '../errors';
import { log } from '../log';
import { coldSurvey, sendWith, type MailDeps } from '../mail';
import { sign, verifySignature } from '../signing';
import * as queries from './queries';

export const DEFAULT_SURVEY_QUESTIONS = [
	'La formation a-t-elle répondu à vos attentes ?',
	'Les contenus (textes, vidéos, exercices) étaient-ils clairs et utiles ?',
	'Le rythme et la durée annoncée vous ont-ils convenu ?',
	'Avez-vous été bien accompagné par le formateur ?',
	'Pouvez-vous appliquer ce que vous avez appris dans votre activité ?'
];
export const surveyQuestionsOf = (settings: { surveyQuestions: string[] | null }) =>
	settings.surveyQuestions?.length === 5 ? settings.surveyQuestions : DEFAULT_SURVEY_QUESTIONS;

/** A cold link works this long after its e-mail. */
export const COLD_LINK_DAYS = 30;
/** The reminder goes this many days after the first e-mail, to those who did not answer. */
export const COLD_REMINDER_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type Answer = { ratings: number[]; comment?: string } | { skip: true };

/** The hot survey: once (409 after). `{ skip: true }` is « Plus tard », recorded as skipped. */
export async function answerHot(
	db: DbOrTx,
	userId: string,
	questions: string[],
	answer: Answer
): Promise<void> {
	const inserted = await queries.insertSatisfaction(
		db,
		'skip' in answer
			? { userId, kind: 'hot', skipped: true }
			: { userId, kind: 'hot', questions, ratings: answer.ratings, comment: answer.comment?.trim() || null }
	);
	if (!inserted) throw new ConflictError('Vous avez déjà répondu à ce questionnaire.');
}

/** Whether `/bilan` still asks the hot survey (not answered, not skipped). */
export const hotDone = async (db: DbOrTx, userId: string) =>
	!!(await queries.satisfactionOf(db, userId, 'hot'));

// ——— The cold survey's link ———

const coldMessage = (userId: string, sentAt: number) => `satisfaction-cold:${userId}:${sentAt}`;

/** `/avis/{token}`: the member and the time of the first e-mail, signed (the link expires 30 days after it). */
export const coldToken = (secret: string, userId: string, sentAt: Date) =>
	`${userId}.${sentAt.getTime().toString(36)}.${sign(secret, coldMessage(userId, sentAt.getTime()))}`;

function readColdToken(secret: string, token: string): { userId: string; sentAt: number } | null {
	const match = /^([0-9a-f-]{36})\.([0-9a-z]{1,12})\.([\w-]{16,128})$/.exec(token);
	if (!match) return null;
	const sentAt = parseInt(match[2]!, 36);
	return verifySignature(secret, coldMessage(match[1]!, sentAt), match[3]!)
		? { userId: match[1]!, sentAt }
		: null;
}

/**
 * The survey a cold link opens: 404 for a token that is not one, 410 once answered or 30 days after the e-mail.
 * The questions are the ones asked now.
 */
export async function coldSurveyFor(db: DbOrTx, secret: string, token: string, now = new Date()) {
	const read = readColdToken(secret, token);
	if (!read) throw new NotFoundError('Ce lien de questionnaire n’existe pas.');
	if (await queries.satisfactionOf(db, read.userId, 'cold'))
		throw new GoneError('Ce questionnaire a déjà reçu votre réponse : merci !');
	if (now.getTime() > read.sentAt + COLD_LINK_DAYS * DAY_MS)
		throw new GoneError('Ce lien a expiré : il servait pendant 30 jours.');
	const member = await queries.memberOf(db, read.userId);
	if (!member) throw new GoneError('Ce questionnaire n’est plus ouvert.');
	return { userId: read.userId, firstName: member.name.trim().split(/\s+/)[0] || member.name };
}

/** The cold answer, through its link, once: 410 when used or expired. */
export async function answerCold(
	db: DbOrTx,
	secret: string,
	token: string,
	questions: string[],
	answer: Answer,
	now = new Date()
): Promise<void> {
	if ('skip' in answer) throw new ValidationError({ ratings: ['Cinq notes de 1 à 5.'] });
	const { userId } = await coldSurveyFor(db, secret, token, now);
	const inserted = await queries.insertSatisfaction(db, {
		userId,
		kind: 'cold',
		questions,
		ratings: answer.ratings,
		comment: answer.comment?.trim() || null,
		answeredAt: now
	});
	if (!inserted) throw new GoneError('Ce questionnaire a déjà reçu votre réponse : merci !');
}

export interface ColdSurveyDeps {
	db: Db;
	mail: MailDeps;
	origin: URL;
	signingSecret: string;
}

/**
 * The job (at start and hourly, on every instance): the first e-mail to each member who finished `days` ago, then
 * the reminder a week later to those who did not answer. Each is claimed before it goes — one instance's insert or
 * update takes it — and a send that fails gives its claim back for the next run.
 */
export async function sendColdSurveys(
	deps: ColdSurveyDeps,
	days: number,
	now = new Date()
): Promise<{ sent: number; reminded: number }> {
	let sent = 0;
	let reminded = 0;
	const linkOf = (userId: string, sentAt: Date) =>
		new URL(`/avis/${coldToken(deps.signingSecret, userId, sentAt)}`, deps.origin).href;
	const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;
	for (const member of await queries.coldSurveyDue(deps.db, now, days)) {
		if (!(await queries.claimColdSurvey(deps.db, member.id, now))) continue;
		const result = await sendWith(deps.mail, {
			to: { name: member.name, address: member.email },
			template: 'satisfaction-cold',
			...coldSurvey(firstName(member.name), linkOf(member.id, now), false)
		}).catch((error: unknown) => ({ sent: false, error }));
		if (result.sent) sent++;
		else {
			log.warn('cold survey not sent: tried again at the next run', { error: result.error });
			await queries.unclaimColdSurvey(deps.db, member.id);
		}
	}
	for (const member of await queries.claimColdReminders(deps.db, now, COLD_REMINDER_DAYS)) {
		// The reminder's link is the first e-mail's: the same 30 days.
		const result = await sendWith(deps.mail, {
			to: { name: member.name, address: member.email },
			template: 'satisfaction-cold-reminder',
			...coldSurvey(firstName(member.name), linkOf(member.id, member.sentAt), true)
		}).catch((error: unknown) => ({ sent: false, error }));
		if (result.sent) reminded++;
		else {
			log.warn('cold survey reminder not sent: tried again at the next run', { error: result.error });
			await queries.unclaimColdReminder(deps.db, member.id);
		}
	}
	return { sent, reminded };
}

// ——— Results ———

const average = (values: number[]) =>
	values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10 : null;

/** `/admin/satisfaction`: per question, hot and cold, the average; the response rates; every comment. */
export async function satisfactionResults(db: DbOrTx, questions: string[]) {
	const [rows, coldSent, figures] = await Promise.all([
		queries.satisfactionAll(db),
		queries.countColdSent(db),
		queries.programmeFigures(db)
	]);
	const of = (kind: 'hot' | 'cold') => {
		const answered = rows.filter((r) => r.kind === kind && !r.skipped && r.ratings);
		return {
			answers: answered.length,
			skipped: rows.filter((r) => r.kind === kind && r.skipped).length,
			averages: questions.map((_, i) =>
				average(answered.map((r) => r.ratings![i]).filter((v): v is number => typeof v === 'number'))
			),
			overall: average(answered.flatMap((r) => r.ratings ?? []))
		};
	};
	const hot = of('hot');
	const cold = of('cold');
	return {
		questions,
		hot: { ...hot, asked: figures.finished, rate: figures.finished ? hot.answers / figures.finished : null },
		cold: { ...cold, asked: coldSent, rate: coldSent ? cold.answers / coldSent : null },
		comments: rows
			.filter((r) => r.comment)
			.slice(0, 500)
			.map((r) => ({ name: r.name, kind: r.kind, comment: r.comment!, at: r.answeredAt }))
	};
}

/** Answers read at a time by the export. */
const CSV_BATCH = 1000;

/**
 * Every answer, a row each, newest first: formulas defused like every export, and streamed — read by keys a batch
 * at a time as the client takes them, so that years of answers go out in the memory of one batch.
 */
export function satisfactionCsv(db: DbOrTx, batch = CSV_BATCH): ReadableStream<Uint8Array> {
	return csvStream(
		[
			'date',
			'membre',
			'email',
			'moment',
			'passé',
			'note 1',
			'note 2',
			'note 3',
			'note 4',
			'note 5',
			'commentaire'
		],
		answerBatches(db, batch)
	);
}

async function* answerBatches(db: DbOrTx, batch: number) {
	let cursor: queries.AnswerCursor | null = null;
	for (;;) {
		const rows = await queries.satisfactionAfter(db, cursor, batch);
		if (rows.length)
			yield rows.map((r) => [
				r.answeredAt.toISOString(),
				r.name,
				r.email,
				r.kind === 'hot' ? 'à chaud' : 'à froid',
				r.skipped ? 'oui' : 'non',
				...Array.from({ length: 5 }, (_, i) => r.ratings?.[i] ?? ''),
				r.comment ?? ''
			]);
		if (rows.length < batch) return;
		const last = rows.at(-1)!;
		cursor = { at: last.at, userId: last.userId, kind: last.kind };
	}
}
