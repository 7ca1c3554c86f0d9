/**
 * The training domain's SQL: the threads between members and the trainer, the satisfaction survey, and — as a
 * reporting domain — what the programme sheet's figures, the certificat de réalisation and the proof file read of
 * the course's tables (modules, progress, quizzes, positions, sign-ins, positioning), which it never writes.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { cursorTime } from '../db/keyset';
import { rowsOf } from '../db/migrate';
import {
	candidatures,
	coldSurveys,
	moduleProgress,
	modules,
	positioningAnswers,
	questionMessages,
	questionNotices,
	questionThreads,
	quizAttempts,
	satisfactionAnswers,
	signIns,
	users,
	videoPositions
} from '../db/schema';

export type QuestionThread = typeof questionThreads.$inferSelect;
export type QuestionMessage = typeof questionMessages.$inferSelect;

// ——— Threads ———

export async function insertThread(
	db: DbOrTx,
	thread: { userId: string; moduleId: string; moduleTitle: string; at: Date },
	message: Omit<typeof questionMessages.$inferInsert, 'threadId' | 'author' | 'createdAt'>
): Promise<string> {
	const [row] = await db
		.insert(questionThreads)
		.values({
			userId: thread.userId,
			moduleId: thread.moduleId,
			moduleTitle: thread.moduleTitle,
			createdAt: thread.at,
			lastMessageAt: thread.at,
			awaitingSince: thread.at
		})
		.returning({ id: questionThreads.id });
	await db
		.insert(questionMessages)
		.values({ ...message, threadId: row!.id, author: 'member', createdAt: thread.at });
	return row!.id;
}

export async function threadById(db: DbOrTx, id: string): Promise<QuestionThread | null> {
	const [row] = await db.select().from(questionThreads).where(eq(questionThreads.id, id));
	return row ?? null;
}

export const messagesOf = (db: DbOrTx, threadId: string): Promise<QuestionMessage[]> =>
	db
		.select()
		.from(questionMessages)
		.where(eq(questionMessages.threadId, threadId))
		.orderBy(asc(questionMessages.createdAt), asc(questionMessages.id));

/**
 * (Times in raw SQL go as ISO text cast to timestamptz: postgres.js takes no Date inside a `sql` fragment.)
 *
 * A message added to a thread, and the thread's state moved with it in the same statement's transaction: a member's
 * message leaves the thread awaiting (since its first unanswered message), a trainer's answers it.
 */
export async function insertMessage(
	db: DbOrTx,
	message: typeof questionMessages.$inferInsert & { createdAt: Date }
): Promise<void> {
	await db.insert(questionMessages).values(message);
	const at = message.createdAt;
	await db
		.update(questionThreads)
		.set(
			message.author === 'member'
				? {
						lastMessageAt: at,
						awaitingSince: sql`coalesce(${questionThreads.awaitingSince}, ${at.toISOString()}::timestamptz)`
					}
				: {
						lastMessageAt: at,
						awaitingSince: null,
						firstAnsweredAt: sql`coalesce(${questionThreads.firstAnsweredAt}, ${at.toISOString()}::timestamptz)`
					}
		)
		.where(eq(questionThreads.id, message.threadId));
}

const threadSummary = {
	id: questionThreads.id,
	userId: questionThreads.userId,
	memberName: users.name,
	memberEmail: users.email,
	moduleId: questionThreads.moduleId,
	moduleTitle: questionThreads.moduleTitle,
	createdAt: questionThreads.createdAt,
	lastMessageAt: questionThreads.lastMessageAt,
	awaitingSince: questionThreads.awaitingSince,
	firstAnsweredAt: questionThreads.firstAnsweredAt,
	messages:
		sql<number>`(select count(*) from question_messages m where m.thread_id = ${questionThreads.id})`.mapWith(
			Number
		)
};
export type ThreadSummary = Awaited<ReturnType<typeof threadsOfMember>>[number];

export const threadsOfMember = (db: DbOrTx, userId: string, limit = 200) =>
	db
		.select(threadSummary)
		.from(questionThreads)
		.innerJoin(users, eq(users.id, questionThreads.userId))
		.where(eq(questionThreads.userId, userId))
		.orderBy(desc(questionThreads.lastMessageAt))
		.limit(limit);

/** The admins' list: unanswered first, oldest wait first; then the others, latest first. Bounded. */
export const threadsForAdmins = (db: DbOrTx, state: 'open' | 'answered' | 'all', limit: number) =>
	db
		.select(threadSummary)
		.from(questionThreads)
		.innerJoin(users, eq(users.id, questionThreads.userId))
		.where(
			state === 'open'
				? isNotNull(questionThreads.awaitingSince)
				: state === 'answered'
					? isNull(questionThreads.awaitingSince)
					: undefined
		)
		.orderBy(
			sql`${questionThreads.awaitingSince} asc nulls last`,
			desc(questionThreads.lastMessageAt),
			asc(questionThreads.id)
		)
		.limit(limit);

/** Per member: how many questions, and the average time to a first answer in seconds (`/admin/suivi`). */
/** Per member of `userIds` (a page of the follow-up): their questions, and the average wait for a first answer. */
export async function questionFiguresByMember(db: DbOrTx, userIds: readonly string[]) {
	return db
		.select({
			userId: questionThreads.userId,
			questions: count(),
			firstAnswerSeconds: sql<
				number | null
			>`avg(extract(epoch from (${questionThreads.firstAnsweredAt} - ${questionThreads.createdAt})))`.mapWith(
				(v) => (v === null ? null : Number(v))
			)
		})
		.from(questionThreads)
		.where(inArray(questionThreads.userId, [...userIds]))
		.groupBy(questionThreads.userId);
}

export const adminsToTell = (db: DbOrTx) =>
	db
		.select({ id: users.id, name: users.name, email: users.email })
		.from(users)
		.where(eq(users.isAdmin, true));

/**
 * Claims the e-mail telling `adminId` of `memberId`'s question: true when none was sent in the last 15 minutes (the
 * claim is the row's time, moved in one statement, so two messages at once send one e-mail).
 */
export async function claimQuestionNotice(
	db: DbOrTx,
	adminId: string,
	memberId: string,
	now: Date,
	quietMinutes: number
): Promise<boolean> {
	const before = new Date(now.getTime() - quietMinutes * 60_000);
	const rows = await db
		.insert(questionNotices)
		.values({ adminId, memberId, sentAt: now })
		.onConflictDoUpdate({
			target: [questionNotices.adminId, questionNotices.memberId],
			set: { sentAt: now },
			setWhere: lt(questionNotices.sentAt, before)
		})
		.returning({ adminId: questionNotices.adminId });
	return rows.length > 0;
}

// ——— Satisfaction ———

export type SatisfactionRow = typeof satisfactionAnswers.$inferSelect;

/** Once per member and kind: false when a row was already there. */
export async function insertSatisfaction(
	db: DbOrTx,
	row: typeof satisfactionAnswers.$inferInsert
): Promise<boolean> {
	const inserted = await db
		.insert(satisfactionAnswers)
		.values(row)
		.onConflictDoNothing()
		.returning({ userId: satisfactionAnswers.userId });
	return inserted.length > 0;
}

export async function satisfactionOf(db: DbOrTx, userId: string, kind: 'hot' | 'cold') {
	const [row] = await db
		.select()
		.from(satisfactionAnswers)
		.where(and(eq(satisfactionAnswers.userId, userId), eq(satisfactionAnswers.kind, kind)));
	return row ?? null;
}

export const satisfactionRowsOf = (db: DbOrTx, userId: string) =>
	db.select().from(satisfactionAnswers).where(eq(satisfactionAnswers.userId, userId));

/** Every answer, with the member's name, newest first (the results page and its CSV). */
/** An answer as the results and the export read it, with its member's name and e-mail. */
const answerColumns = {
	userId: satisfactionAnswers.userId,
	name: users.name,
	email: users.email,
	kind: satisfactionAnswers.kind,
	questions: satisfactionAnswers.questions,
	ratings: satisfactionAnswers.ratings,
	comment: satisfactionAnswers.comment,
	skipped: satisfactionAnswers.skipped,
	answeredAt: satisfactionAnswers.answeredAt
};

export const satisfactionAll = (db: DbOrTx) =>
	db
		.select(answerColumns)
		.from(satisfactionAnswers)
		.innerJoin(users, eq(users.id, satisfactionAnswers.userId))
		.orderBy(desc(satisfactionAnswers.answeredAt));

/** Where a walk through the answers, newest first, stopped: the last answer's time, member and moment. */
export interface AnswerCursor {
	at: string;
	userId: string;
	kind: string;
}

/** The next `limit` answers after `cursor`, newest first, each with its cursor: the export's walk by keys. */
export const satisfactionAfter = (db: DbOrTx, cursor: AnswerCursor | null, limit: number) =>
	db
		.select({ ...answerColumns, at: cursorTime(satisfactionAnswers.answeredAt) })
		.from(satisfactionAnswers)
		.innerJoin(users, eq(users.id, satisfactionAnswers.userId))
		.where(
			cursor
				? sql`(${satisfactionAnswers.answeredAt}, ${satisfactionAnswers.userId}, ${satisfactionAnswers.kind}) < (${cursor.at}::timestamptz, ${cursor.userId}::uuid, ${cursor.kind})`
				: undefined
		)
		.orderBy(
			desc(satisfactionAnswers.answeredAt),
			desc(satisfactionAnswers.userId),
			desc(satisfactionAnswers.kind)
		)
		.limit(limit);

/** The cold survey's sends so far: how many were sent (the response rate's base). */
export async function countColdSent(db: DbOrTx): Promise<number> {
	const [row] = await db.select({ n: count() }).from(coldSurveys);
	return row?.n ?? 0;
}

/**
 * Members who finished the course (every published module completed, the last `days` or more ago) and were sent no
 * cold survey yet: who the job writes to. « Finished » is the last completion among the published modules.
 */
export async function coldSurveyDue(db: DbOrTx, now: Date, days: number) {
	const rows = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			with published as (select id from modules where published),
			finished as (
				select p.user_id, max(p.completed_at) as finished_at
				from module_progress p join published on published.id = p.module_id
				group by p.user_id
				having count(*) = (select count(*) from published) and (select count(*) from published) > 0
			)
			select u.id, u.name, u.email, f.finished_at
			from finished f join users u on u.id = f.user_id
			where f.finished_at <= ${new Date(now.getTime() - days * 86_400_000).toISOString()}::timestamptz
				and not u.is_admin
				and not exists (select 1 from cold_surveys c where c.user_id = u.id)
				and not exists (select 1 from satisfaction_answers s where s.user_id = u.id and s.kind = 'cold')
			order by f.finished_at
			limit 500`)
	);
	return rows.map((r) => ({ id: String(r.id), name: String(r.name), email: String(r.email) }));
}

/** Claims the first cold e-mail to a member: true for the one instance whose insert made the row. */
export async function claimColdSurvey(db: DbOrTx, userId: string, now: Date): Promise<boolean> {
	const rows = await db
		.insert(coldSurveys)
		.values({ userId, sentAt: now })
		.onConflictDoNothing()
		.returning({ userId: coldSurveys.userId });
	return rows.length > 0;
}

/** A send that failed gives its claim back, so that the next run tries again. */
export const unclaimColdSurvey = (db: DbOrTx, userId: string) =>
	db.delete(coldSurveys).where(eq(coldSurveys.userId, userId));

export async function coldSurveyOf(db: DbOrTx, userId: string) {
	const [row] = await db.select().from(coldSurveys).where(eq(coldSurveys.userId, userId));
	return row ?? null;
}

/**
 * Claims the reminders due: sent `days` or more ago, not reminded, not answered. One UPDATE … RETURNING: of several
 * instances, each member is returned to one.
 */
export async function claimColdReminders(db: DbOrTx, now: Date, days: number) {
	const rows = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			update cold_surveys c set reminded_at = ${now.toISOString()}::timestamptz
			from users u
			where u.id = c.user_id and c.reminded_at is null
				and c.sent_at <= ${new Date(now.getTime() - days * 86_400_000).toISOString()}::timestamptz
				and not exists (select 1 from satisfaction_answers s where s.user_id = c.user_id and s.kind = 'cold')
			returning u.id, u.name, u.email, c.sent_at`)
	);
	return rows.map((r) => ({
		id: String(r.id),
		name: String(r.name),
		email: String(r.email),
		sentAt: new Date(r.sent_at as string)
	}));
}

export const unclaimColdReminder = (db: DbOrTx, userId: string) =>
	db.update(coldSurveys).set({ remindedAt: null }).where(eq(coldSurveys.userId, userId));

// ——— The programme's figures (Qualiopi's indicator 2) ———

/**
 * Learners (accounts with a membership, admins aside), those who finished every published module, the average of
 * each learner's best score per quiz, and the hot survey's average and answers.
 */
export async function programmeFigures(db: DbOrTx) {
	const [row] = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			with published as (select id from modules where published),
			learners as (
				select distinct u.id from users u join memberships m on m.user_id = u.id where not u.is_admin
			),
			finished as (
				select p.user_id from module_progress p
				join published on published.id = p.module_id
				join learners l on l.id = p.user_id
				group by p.user_id
				having count(*) = (select count(*) from published)
			),
			best as (
				select q.user_id, q.module_id, max(q.score) as score
				from quiz_attempts q join learners l on l.id = q.user_id
				group by q.user_id, q.module_id
			),
			hot as (
				select s.ratings from satisfaction_answers s join learners l on l.id = s.user_id
				where s.kind = 'hot' and not s.skipped and s.ratings is not null
			)
			select
				(select count(*) from learners) as learners,
				(select count(*) from finished) as finished,
				(select count(*) from published) as published,
				(select avg(score) from best) as quiz_average,
				(select count(*) from hot) as hot_answers,
				(select avg(r::numeric) from hot, jsonb_array_elements_text(hot.ratings) r) as hot_average`)
	);
	const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
	return {
		learners: n(row?.learners) ?? 0,
		finished: n(row?.finished) ?? 0,
		published: n(row?.published) ?? 0,
		quizAverage: n(row?.quiz_average),
		hotAnswers: n(row?.hot_answers) ?? 0,
		hotAverage: n(row?.hot_average)
	};
}

// ——— A learner's record (the certificat de réalisation, the proof file) ———

export async function memberOf(db: DbOrTx, userId: string) {
	const [row] = await db
		.select({ id: users.id, name: users.name, email: users.email, createdAt: users.createdAt })
		.from(users)
		.where(eq(users.id, userId));
	return row ?? null;
}

/** The company named in the member's candidature (the employer the certificat names), if any. */
export async function employerOf(db: DbOrTx, userId: string): Promise<string | null> {
	const [row] = await db
		.select({ company: candidatures.company })
		.from(candidatures)
		.where(eq(candidatures.userId, userId))
		.orderBy(desc(candidatures.createdAt))
		.limit(1);
	return row?.company?.trim() || null;
}

export const signInsOf = (db: DbOrTx, userId: string) =>
	db.select({ at: signIns.at }).from(signIns).where(eq(signIns.userId, userId)).orderBy(asc(signIns.at));

/** Every completion, published module or not, with the module's title and duration. */
export const completionsOf = (db: DbOrTx, userId: string) =>
	db
		.select({
			moduleId: moduleProgress.moduleId,
			title: modules.title,
			published: modules.published,
			durationMinutes: modules.durationMinutes,
			position: modules.position,
			completedAt: moduleProgress.completedAt
		})
		.from(moduleProgress)
		.innerJoin(modules, eq(modules.id, moduleProgress.moduleId))
		.where(eq(moduleProgress.userId, userId))
		.orderBy(asc(moduleProgress.completedAt));

export const videoPositionsOf = (db: DbOrTx, userId: string) =>
	db
		.select({ title: modules.title, seconds: videoPositions.seconds, updatedAt: videoPositions.updatedAt })
		.from(videoPositions)
		.innerJoin(modules, eq(modules.id, videoPositions.moduleId))
		.where(eq(videoPositions.userId, userId))
		.orderBy(asc(videoPositions.updatedAt));

export const quizAttemptsOf = (db: DbOrTx, userId: string) =>
	db
		.select({
			title: modules.title,
			score: quizAttempts.score,
			correct: quizAttempts.correct,
			total: quizAttempts.total,
			passed: quizAttempts.passed,
			createdAt: quizAttempts.createdAt
		})
		.from(quizAttempts)
		.innerJoin(modules, eq(modules.id, quizAttempts.moduleId))
		.where(eq(quizAttempts.userId, userId))
		.orderBy(asc(quizAttempts.createdAt));

export async function positioningOf(db: DbOrTx, userId: string) {
	const [row] = await db.select().from(positioningAnswers).where(eq(positioningAnswers.userId, userId));
	return row ?? null;
}

/** Every message of every thread of the member, oldest first, with its thread's module. */
export const questionLogOf = (db: DbOrTx, userId: string) =>
	db
		.select({
			threadId: questionThreads.id,
			moduleTitle: questionThreads.moduleTitle,
			author: questionMessages.author,
			body: questionMessages.body,
			attachmentName: questionMessages.attachmentName,
			createdAt: questionMessages.createdAt
		})
		.from(questionMessages)
		.innerJoin(questionThreads, eq(questionThreads.id, questionMessages.threadId))
		.where(eq(questionThreads.userId, userId))
		.orderBy(asc(questionMessages.createdAt), asc(questionMessages.id));

/** The attachment of a message, for a reader of its thread. */
export async function attachmentOf(db: DbOrTx, messageId: string) {
	const [row] = await db
		.select({
			threadId: questionMessages.threadId,
			path: questionMessages.attachmentPath,
			name: questionMessages.attachmentName,
			type: questionMessages.attachmentType
		})
		.from(questionMessages)
		.where(eq(questionMessages.id, messageId));
	return row ?? null;
}

/** Object paths of a member's attachments (deleted from the bucket with their account). */
export async function attachmentPathsOf(db: DbOrTx, userId: string): Promise<string[]> {
	const rows = await db
		.select({ path: questionMessages.attachmentPath })
		.from(questionMessages)
		.innerJoin(questionThreads, eq(questionThreads.id, questionMessages.threadId))
		.where(and(eq(questionThreads.userId, userId), isNotNull(questionMessages.attachmentPath)));
	return rows.map((r) => r.path!).filter(Boolean);
}
