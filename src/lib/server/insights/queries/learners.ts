/**
 * The course's learners (/admin/suivi): each member's progress and the modules' funnel.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { rowsOf } from '../../db/migrate';

export interface LearnerRow {
	id: string;
	name: string;
	email: string;
	status: string;
	currentPeriodEnd: Date | null;
	memberSince: Date;
	completed: number;
	quizzesPassed: number;
	attempts: number;
	lastActivity: Date | null;
}

const asDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

/**
 * Every member's facts, each table read once and joined by member (a correlated subquery per member read
 * module_progress and quiz_attempts 5,000 times at years of use: 600 ms where this takes 50).
 */
const learnerFacts = sql`
	select u.id, u.name, u.email, m.status, m.current_period_end, m.created_at as member_since,
		coalesce(p.completed, 0) as completed, coalesce(q.passed, 0) as quizzes_passed,
		coalesce(q.attempts, 0) as attempts, greatest(p.last, q.last, v.last) as last_activity
	from (
		select distinct on (user_id) user_id, status, current_period_end, created_at from memberships
		where user_id is not null order by user_id, created_at desc
	) m
	join users u on u.id = m.user_id
	left join (
		select p.user_id, count(*) filter (where mo.published) as completed, max(p.completed_at) as last
		from module_progress p join modules mo on mo.id = p.module_id group by p.user_id
	) p on p.user_id = u.id
	left join (
		select user_id, count(distinct module_id) filter (where passed) as passed, count(*) as attempts,
			max(created_at) as last
		from quiz_attempts group by user_id
	) q on q.user_id = u.id
	left join (select user_id, max(updated_at) as last from video_positions group by user_id) v
		on v.user_id = u.id`;

/** Where a walk through the members, in the report's order, stopped: the last one's name and id. */
export interface LearnerCursor {
	name: string;
	id: string;
}

/**
 * Every member's row in the report's order (name, then id) — or one member's (`only`), or the `limit` after
 * `after` (the export's walk by keys).
 */
export const learnersStatement = ({
	only,
	after,
	limit
}: { only?: string; after?: LearnerCursor | null; limit?: number } = {}) => {
	const conditions = [
		only ? sql`u.id = ${only}::uuid` : null,
		after ? sql`(u.name, u.id) > (${after.name}, ${after.id}::uuid)` : null
	].filter((condition) => condition !== null);
	return sql`${learnerFacts}
		${conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}
		order by u.name, u.id ${limit ? sql`limit ${limit}` : sql``}`;
};

/**
 * How many members are stuck, counted by the database (the dashboard's figure: reading 5,000 members' rows into the
 * process to count a few took most of its time on the embedded database). The same rule as learners.ts: following
 * the course (active or trialing, or past due within the paid period), a published module left to finish, and no
 * sign of work — else the day they joined — for `days` days. tests/integration/learners.integration.test.ts holds
 * the two to the same answer.
 */
export async function countStuck(db: DbOrTx, now: Date, days: number): Promise<number> {
	const at = sql`${now.toISOString()}::timestamptz`;
	const [row] = rowsOf<{ n: number }>(
		await db.execute(sql`
			select count(*)::int as n
			from (${learnerFacts}) l cross join (select count(*) as total from modules where published) t
			where (l.status in ('active', 'trialing') or (l.status = 'past_due' and l.current_period_end > ${at}))
				and t.total > 0 and l.completed < t.total
				and coalesce(l.last_activity, l.member_since) <= ${at} - make_interval(days => ${days})`)
	);
	return Number(row?.n ?? 0);
}

/**
 * Every member (an account with a membership), with their progress over the published modules, their quiz results
 * and their last sign of work (a module completed, a quiz attempt, a video position kept). One statement.
 */
export async function learnerRows(
	db: DbOrTx,
	options: Parameters<typeof learnersStatement>[0] = {}
): Promise<LearnerRow[]> {
	const rows = rowsOf<Record<string, unknown>>(await db.execute(learnersStatement(options)));
	return rows.map((row) => ({
		id: String(row.id),
		name: String(row.name),
		email: String(row.email),
		status: String(row.status),
		currentPeriodEnd: asDate(row.current_period_end),
		memberSince: asDate(row.member_since)!,
		completed: Number(row.completed),
		quizzesPassed: Number(row.quizzes_passed),
		attempts: Number(row.attempts),
		lastActivity: asDate(row.last_activity)
	}));
}

export interface ModuleFunnelRow {
	id: string;
	title: string;
	slug: string;
	hasQuiz: boolean;
	started: number;
	completed: number;
	quizTakers: number;
	quizPassers: number;
	attempts: number;
}

/** Per published module, in the course's order: how many started it, finished it, took and passed its quiz. */
export async function moduleFunnelRows(db: DbOrTx): Promise<ModuleFunnelRow[]> {
	const rows = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			select mo.id, mo.title, mo.slug, mo.quiz is not null as has_quiz,
				(select count(*) from (
					select user_id from module_progress where module_id = mo.id
					union select user_id from quiz_attempts where module_id = mo.id
					union select user_id from video_positions where module_id = mo.id
				) s) as started,
				(select count(*) from module_progress p where p.module_id = mo.id) as completed,
				(select count(distinct q.user_id) from quiz_attempts q where q.module_id = mo.id) as quiz_takers,
				(select count(distinct q.user_id) from quiz_attempts q where q.module_id = mo.id and q.passed)
					as quiz_passers,
				(select count(*) from quiz_attempts q where q.module_id = mo.id) as attempts
			from modules mo
			where mo.published
			order by mo.position, mo.created_at`)
	);
	return rows.map((row) => ({
		id: String(row.id),
		title: String(row.title),
		slug: String(row.slug),
		hasQuiz: row.has_quiz === true || row.has_quiz === 't',
		started: Number(row.started),
		completed: Number(row.completed),
		quizTakers: Number(row.quiz_takers),
		quizPassers: Number(row.quiz_passers),
		attempts: Number(row.attempts)
	}));
}

export interface LearnerModuleRow {
	id: string;
	title: string;
	slug: string;
	hasQuiz: boolean;
	completedAt: Date | null;
	videoSeconds: number | null;
	videoDuration: number | null;
	videoSavedAt: Date | null;
	attempts: { score: number; passed: boolean; at: Date }[];
}

/** One member's way through the published modules, in the course's order: done when, the video's place, each attempt. */
export async function learnerModuleRows(db: DbOrTx, userId: string): Promise<LearnerModuleRow[]> {
	const rows = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			select mo.id, mo.title, mo.slug, mo.quiz is not null as has_quiz, p.completed_at,
				v.seconds as video_seconds, v.updated_at as video_saved_at, f.duration_seconds as video_duration,
				coalesce((select json_agg(json_build_object('score', q.score, 'passed', q.passed, 'at', q.created_at)
					order by q.created_at)
					from quiz_attempts q where q.module_id = mo.id and q.user_id = ${userId}), '[]'::json) as attempts
			from modules mo
			left join module_progress p on p.module_id = mo.id and p.user_id = ${userId}
			left join video_positions v on v.module_id = mo.id and v.user_id = ${userId}
			left join course_files f on mo.video is not null and f.path = substr(mo.video, length('storage:') + 1)
			where mo.published
			order by mo.position, mo.created_at`)
	);
	return rows.map((row) => {
		const attempts = (typeof row.attempts === 'string' ? JSON.parse(row.attempts) : row.attempts) as {
			score: number;
			passed: boolean;
			at: string;
		}[];
		return {
			id: String(row.id),
			title: String(row.title),
			slug: String(row.slug),
			hasQuiz: row.has_quiz === true || row.has_quiz === 't',
			completedAt: asDate(row.completed_at),
			videoSeconds: row.video_seconds === null ? null : Number(row.video_seconds),
			videoDuration: row.video_duration === null ? null : Number(row.video_duration),
			videoSavedAt: asDate(row.video_saved_at),
			attempts: attempts.map((a) => ({ score: Number(a.score), passed: a.passed, at: new Date(a.at) }))
		};
	});
}

/** The course reminders sent to a member (the e-mails' own trail), newest first, and whether they asked for none. */
export async function learnerReminders(db: DbOrTx, userId: string, email: string) {
	const sent = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			select created_at, status from emails
			where template = 'course-reminder' and lower("to") = lower(${email})
			order by created_at desc limit 50`)
	);
	const [settings] = rowsOf<Record<string, unknown>>(
		await db.execute(sql`select unsubscribed_at from course_reminders where user_id = ${userId}`)
	);
	return {
		sent: sent.map((row) => ({ at: asDate(row.created_at)!, delivered: row.status === 'sent' })),
		unsubscribedAt: asDate(settings?.unsubscribed_at)
	};
}
