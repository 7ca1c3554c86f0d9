/** The threads between members and the trainer: their messages, attachments and the notices to the admins. */
import { asc, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { questionMessages, questionNotices, questionThreads, users } from '../../db/schema';

export type QuestionThread = typeof questionThreads.$inferSelect;
export type QuestionMessage = typeof questionMessages.$inferSelect;

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
