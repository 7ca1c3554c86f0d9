/** The privacy domain's SQL: one account's rows, read together for the personal-data file (export.ts). */
import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { learnerRecordIn } from '../training';
import {
	candidatures,
	emailChanges,
	emails,
	memberships,
	moduleProgress,
	attestations,
	courseReminders,
	modules,
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
		const { reminders, record, ...rows } = await allOf({
			// Theirs by account once enrolled, by address before (a candidature is made without an account).
			theirCandidatures: tx
				.select()
				.from(candidatures)
				.where(or(eq(candidatures.userId, userId), eq(candidatures.email, account.email)))
				.orderBy(asc(candidatures.createdAt)),
			theirMemberships: tx
				.select()
				.from(memberships)
				.where(eq(memberships.userId, userId))
				.orderBy(asc(memberships.createdAt)),
			progress: tx
				.select({ slug: modules.slug, title: modules.title, completedAt: moduleProgress.completedAt })
				.from(moduleProgress)
				.innerJoin(modules, eq(modules.id, moduleProgress.moduleId))
				.where(eq(moduleProgress.userId, userId))
				.orderBy(asc(moduleProgress.completedAt)),
			mails: tx.select().from(emails).where(eq(emails.to, account.email)).orderBy(asc(emails.createdAt)),
			theirSessions: tx
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
			changes: tx
				.select()
				.from(emailChanges)
				.where(
					and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now))
				),
			factor: tx
				.select({ confirmedAt: totpFactors.confirmedAt })
				.from(totpFactors)
				.where(eq(totpFactors.userId, userId)),
			codes: tx
				.select({ usedAt: recoveryCodes.usedAt })
				.from(recoveryCodes)
				.where(eq(recoveryCodes.userId, userId)),
			theirAttestations: tx
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
			reminders: tx
				.select({ lastSentAt: courseReminders.lastSentAt, unsubscribedAt: courseReminders.unsubscribedAt })
				.from(courseReminders)
				.where(eq(courseReminders.userId, userId)),
			// The training file (issue « Formation, part 1 »): sign-ins, positioning, questions, surveys.
			record: learnerRecordIn(tx, userId)
		});
		return { account, ...rows, reminder: reminders[0] ?? null, ...record };
	});
}

/** Promise.all over an object's values: each read named where it is made, not again in a list beside it. */
async function allOf<Reads extends Record<string, PromiseLike<unknown>>>(
	reads: Reads
): Promise<{ [Name in keyof Reads]: Awaited<Reads[Name]> }> {
	const values = await Promise.all(Object.values(reads));
	return Object.fromEntries(Object.keys(reads).map((name, i) => [name, values[i]])) as {
		[Name in keyof Reads]: Awaited<Reads[Name]>;
	};
}
