/**
 * What the training reads of the course's tables, which it never writes: the programme sheet's figures, and a
 * learner's record (the certificat de réalisation, the proof file, the personal-data file).
 */
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { rowsOf } from '../../db/migrate';
import { satisfactionRowsOf } from './satisfaction';
import {
	candidatures,
	moduleProgress,
	modules,
	positioningAnswers,
	questionMessages,
	questionThreads,
	quizAttempts,
	signIns,
	users,
	videoPositions
} from '../../db/schema';

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
		.select({
			slug: modules.slug,
			title: modules.title,
			seconds: videoPositions.seconds,
			updatedAt: videoPositions.updatedAt
		})
		.from(videoPositions)
		.innerJoin(modules, eq(modules.id, videoPositions.moduleId))
		.where(eq(videoPositions.userId, userId))
		.orderBy(asc(videoPositions.updatedAt));

export const quizAttemptsOf = (db: DbOrTx, userId: string) =>
	db
		.select({
			slug: modules.slug,
			title: modules.title,
			score: quizAttempts.score,
			correct: quizAttempts.correct,
			total: quizAttempts.total,
			passed: quizAttempts.passed,
			answers: quizAttempts.answers,
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

/**
 * What a learner did in the training, every row of it (the proof file, and the personal-data file read in its own
 * snapshot): sign-ins, video positions, quiz attempts, the positioning, the questions and answers, the surveys.
 */
export async function learnerRecordOf(db: DbOrTx, userId: string) {
	const [signIns, positions, attempts, positioning, messages, surveys] = await Promise.all([
		signInsOf(db, userId),
		videoPositionsOf(db, userId),
		quizAttemptsOf(db, userId),
		positioningOf(db, userId),
		questionLogOf(db, userId),
		satisfactionRowsOf(db, userId)
	]);
	return { signIns, positions, attempts, positioning, messages, surveys };
}

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
