/** The privacy domain's SQL: one account's rows, read together for the personal-data file (export.ts). */
import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import {
	candidatures,
	emailChanges,
	emails,
	memberships,
	moduleProgress,
	quizAttempts,
	attestations,
	courseReminders,
	videoPositions,
	modules,
	positioningAnswers,
	questionMessages,
	questionThreads,
	satisfactionAnswers,
	signIns,
	sessions,
	users,
	recoveryCodes,
	totpFactors
} from '../db/schema';

/**
 * Everything stored about one account, read in one read-only snapshot so that its parts agree with each other;
 * null when the account does not exist.
 */
export async function personalRowsOf(db: Db, userId: string, now: Date) {
	return db.transaction(async (tx) => {
		await tx.execute(sql`set transaction isolation level repeatable read, read only`);
		const [account] = await tx.select().from(users).where(eq(users.id, userId));
		if (!account) return null;
		const [
			theirCandidatures,
			theirMemberships,
			progress,
			mails,
			theirSessions,
			changes,
			factor,
			codes,
			positions,
			attempts,
			theirAttestations,
			reminders,
			theirSignIns,
			positioning,
			messages,
			surveys
		] = await Promise.all([
			// Theirs by account once enrolled, by address before (a candidature is made without an account).
			tx
				.select()
				.from(candidatures)
				.where(or(eq(candidatures.userId, userId), eq(candidatures.email, account.email)))
				.orderBy(asc(candidatures.createdAt)),
			tx.select().from(memberships).where(eq(memberships.userId, userId)).orderBy(asc(memberships.createdAt)),
			tx
				.select({ slug: modules.slug, title: modules.title, completedAt: moduleProgress.completedAt })
				.from(moduleProgress)
				.innerJoin(modules, eq(modules.id, moduleProgress.moduleId))
				.where(eq(moduleProgress.userId, userId))
				.orderBy(asc(moduleProgress.completedAt)),
			tx.select().from(emails).where(eq(emails.to, account.email)).orderBy(asc(emails.createdAt)),
			tx
				.select({
					createdAt: sessions.createdAt,
					expiresAt: sessions.expiresAt,
					lastSeenAt: sessions.lastSeenAt,
					userAgent: sessions.userAgent,
					network: sessions.network
				})
				.from(sessions)
				.where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
				.orderBy(asc(sessions.createdAt)),
			tx
				.select()
				.from(emailChanges)
				.where(
					and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now))
				),
			tx
				.select({ confirmedAt: totpFactors.confirmedAt })
				.from(totpFactors)
				.where(eq(totpFactors.userId, userId)),
			tx.select({ usedAt: recoveryCodes.usedAt }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
			tx
				.select({
					slug: modules.slug,
					title: modules.title,
					seconds: videoPositions.seconds,
					updatedAt: videoPositions.updatedAt
				})
				.from(videoPositions)
				.innerJoin(modules, eq(modules.id, videoPositions.moduleId))
				.where(eq(videoPositions.userId, userId))
				.orderBy(asc(videoPositions.updatedAt)),
			tx
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
				.orderBy(asc(quizAttempts.createdAt)),
			tx
				.select({
					code: attestations.code,
					memberName: attestations.memberName,
					programme: attestations.programme,
					firstCompletedAt: attestations.firstCompletedAt,
					lastCompletedAt: attestations.lastCompletedAt,
					totalMinutes: attestations.totalMinutes,
					modules: attestations.modules,
					issuedAt: attestations.issuedAt,
					revokedAt: attestations.revokedAt,
					revokedReason: attestations.revokedReason
				})
				.from(attestations)
				.where(eq(attestations.userId, userId)),
			tx
				.select({ lastSentAt: courseReminders.lastSentAt, unsubscribedAt: courseReminders.unsubscribedAt })
				.from(courseReminders)
				.where(eq(courseReminders.userId, userId)),
			// The training file (issue « Formation, part 1 »): sign-ins, positioning, questions, surveys.
			tx.select({ at: signIns.at }).from(signIns).where(eq(signIns.userId, userId)).orderBy(asc(signIns.at)),
			tx.select().from(positioningAnswers).where(eq(positioningAnswers.userId, userId)),
			tx
				.select({
					threadId: questionThreads.id,
					module: questionThreads.moduleTitle,
					author: questionMessages.author,
					body: questionMessages.body,
					attachmentName: questionMessages.attachmentName,
					createdAt: questionMessages.createdAt
				})
				.from(questionMessages)
				.innerJoin(questionThreads, eq(questionThreads.id, questionMessages.threadId))
				.where(eq(questionThreads.userId, userId))
				.orderBy(asc(questionMessages.createdAt)),
			tx.select().from(satisfactionAnswers).where(eq(satisfactionAnswers.userId, userId))
		]);
		return {
			account,
			theirCandidatures,
			theirMemberships,
			progress,
			mails,
			theirSessions,
			changes,
			factor,
			codes,
			positions,
			attempts,
			theirAttestations,
			reminder: reminders[0] ?? null,
			theirSignIns,
			positioning: positioning[0] ?? null,
			messages,
			surveys
		};
	});
}
