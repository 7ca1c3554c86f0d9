/**
 * Who needs a hand (issue « Learning, part 3 », point 4): per member, where they are in the course and when they
 * last worked on it; per module, how many started, finished, took and passed its quiz — the drop-off the trainer
 * looks at. A reporting view: it reads the courses' and memberships' tables, and writes nothing.
 */
import type { DbOrTx } from '../db';
import { csvStream } from '../csv';
import * as queries from './queries';

/** Days without progress after which a member still in the course is « bloqué ». */
export const STUCK_AFTER_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Who may follow the course now: an active subscription, or a past-due one within its paid period. */
const following = (row: Pick<queries.LearnerRow, 'status' | 'currentPeriodEnd'>, now: Date) =>
	row.status === 'active' ||
	row.status === 'trialing' ||
	(row.status === 'past_due' && !!row.currentPeriodEnd && row.currentPeriodEnd > now);

export interface Learner {
	id: string;
	name: string;
	email: string;
	following: boolean;
	completed: number;
	total: number;
	percent: number;
	quizzesPassed: number;
	quizzes: number;
	attempts: number;
	/** Their last sign of work, else the day they joined. */
	lastActivity: Date;
	active: boolean;
	/** Following the course, not finished, and nothing done for STUCK_AFTER_DAYS days. */
	stuck: boolean;
	daysIdle: number;
}

export interface ModuleFunnel {
	title: string;
	slug: string;
	started: number;
	completed: number;
	/** Of the members following the course, the share who completed it (0–100). */
	completionRate: number;
	hasQuiz: boolean;
	/** Of those who tried its quiz, the share who passed it; null without a quiz or an attempt. */
	passRate: number | null;
	averageAttempts: number | null;
}

export interface LearnersReport {
	learners: Learner[];
	modules: ModuleFunnel[];
	following: number;
	stuck: number;
	finished: number;
}

const percentOf = (part: number, whole: number) => (whole ? Math.round((part / whole) * 100) : 0);

/** A member's row of the report: their facts read against the course (its modules and quizzes) and today. */
function learnerOf(row: queries.LearnerRow, course: { total: number; quizzes: number }, now: Date): Learner {
	const { total, quizzes } = course;
	const lastActivity = row.lastActivity ?? row.memberSince;
	const daysIdle = Math.floor((now.getTime() - lastActivity.getTime()) / DAY_MS);
	const isFollowing = following(row, now);
	const completed = Math.min(row.completed, total);
	return {
		id: row.id,
		name: row.name,
		email: row.email,
		following: isFollowing,
		completed,
		total,
		percent: percentOf(completed, total),
		quizzesPassed: row.quizzesPassed,
		quizzes,
		attempts: row.attempts,
		lastActivity,
		active: row.lastActivity !== null,
		stuck: isFollowing && total > 0 && completed < total && daysIdle >= STUCK_AFTER_DAYS,
		daysIdle
	};
}

const courseOf = (funnel: queries.ModuleFunnelRow[]) => ({
	total: funnel.length,
	quizzes: funnel.filter((m) => m.hasQuiz).length
});

/** The report on every member, or on one (`only`: their id; its figures are then theirs alone). */
export async function learnersReport(db: DbOrTx, now = new Date(), only?: string): Promise<LearnersReport> {
	const [rows, funnel] = await Promise.all([queries.learnerRows(db, { only }), queries.moduleFunnelRows(db)]);
	const course = courseOf(funnel);
	const { total } = course;
	const learners = rows.map((row) => learnerOf(row, course, now));
	const followingCount = learners.filter((l) => l.following).length;
	return {
		learners,
		following: followingCount,
		stuck: learners.filter((l) => l.stuck).length,
		finished: learners.filter((l) => total > 0 && l.completed === total).length,
		modules: funnel.map((m) => ({
			title: m.title,
			slug: m.slug,
			started: m.started,
			completed: m.completed,
			completionRate: percentOf(m.completed, followingCount),
			hasQuiz: m.hasQuiz,
			passRate: m.hasQuiz && m.quizTakers ? percentOf(m.quizPassers, m.quizTakers) : null,
			averageAttempts: m.hasQuiz && m.quizTakers ? Math.round((m.attempts / m.quizTakers) * 10) / 10 : null
		}))
	};
}

/** Members shown a page at a time in /admin/suivi (its CSV keeps everyone). */
export const LEARNERS_PAGE_SIZE = 50;

/**
 * One page of the report's members: those whose name or e-mail holds `search` (any case), the stuck ones only if
 * asked, in the report's order; the page past the end is the last one. What a page renders is bounded, whatever
 * the number of members.
 */
export function learnersPage(
	report: LearnersReport,
	{ search, stuckOnly, page }: { search?: string; stuckOnly: boolean; page: number },
	pageSize = LEARNERS_PAGE_SIZE
) {
	const needle = search?.toLocaleLowerCase('fr');
	const matching = report.learners.filter(
		(l) =>
			(!stuckOnly || l.stuck) &&
			(!needle ||
				l.name.toLocaleLowerCase('fr').includes(needle) ||
				l.email.toLocaleLowerCase('fr').includes(needle))
	);
	const pages = Math.max(1, Math.ceil(matching.length / pageSize));
	const current = Math.min(Math.max(1, page), pages);
	return {
		learners: matching.slice((current - 1) * pageSize, current * pageSize),
		pagination: { total: matching.length, page: current, pages, pageSize }
	};
}

/**
 * One member's page (/admin/suivi/{id}, issue « Experience, part 4 », point 7): their row of the report, and each
 * published module as they went through it — done when, where the video was left, every quiz attempt with its
 * score — with the reminders the course sent them. Null for an account that never had a membership.
 */
export async function learnerDetail(db: DbOrTx, userId: string, now = new Date()) {
	// Their row alone: the others' are not read.
	const report = await learnersReport(db, now, userId);
	const learner = report.learners.find((l) => l.id === userId);
	if (!learner) return null;
	const [modules, reminders] = await Promise.all([
		queries.learnerModuleRows(db, userId),
		queries.learnerReminders(db, userId, learner.email)
	]);
	return { learner, modules, reminders };
}

export type LearnerDetail = NonNullable<Awaited<ReturnType<typeof learnerDetail>>>;

/** Members read at a time by the export. */
const CSV_BATCH = 1000;

/**
 * The members' table as a spreadsheet (formulas defused like every export): everyone, in the report's order,
 * streamed — read by keys a batch at a time as the client takes them, so that thousands of members go out in the
 * memory of one batch.
 */
export function learnersCsv(db: DbOrTx, now = new Date(), batch = CSV_BATCH): ReadableStream<Uint8Array> {
	return csvStream(
		[
			'nom',
			'e-mail',
			'abonnement en cours',
			'modules terminés',
			'modules publiés',
			'progression (%)',
			'quiz réussis',
			'tentatives de quiz',
			'dernière activité',
			'bloqué'
		],
		learnerBatches(db, now, batch)
	);
}

async function* learnerBatches(db: DbOrTx, now: Date, batch: number) {
	const course = courseOf(await queries.moduleFunnelRows(db));
	let after: queries.LearnerCursor | null = null;
	for (;;) {
		const rows = await queries.learnerRows(db, { after, limit: batch });
		if (rows.length)
			yield rows.map((row) => {
				const l = learnerOf(row, course, now);
				return [
					l.name,
					l.email,
					l.following ? 'oui' : 'non',
					l.completed,
					l.total,
					l.percent,
					l.quizzesPassed,
					l.attempts,
					l.lastActivity.toISOString().slice(0, 10),
					l.stuck ? 'oui' : 'non'
				];
			});
		if (rows.length < batch) return;
		after = { name: rows.at(-1)!.name, id: rows.at(-1)!.id };
	}
}
