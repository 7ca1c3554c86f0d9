/** The satisfaction survey's answers, hot and cold, and the cold survey's claims and reminders. */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { cursorTime } from '../../db/keyset';
import { rowsOf } from '../../db/migrate';
import { coldSurveys, satisfactionAnswers, users } from '../../db/schema';

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
