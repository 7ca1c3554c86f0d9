/**
 * « Reprenez là où vous en étiez » (issue « Learning, part 3 », point 5): a member without progress for a week gets
 * one short e-mail naming the module to go back to (and where they stopped in its video), at most once a fortnight.
 * A daily job sends them; of several instances, the one that takes the day's turn (job_runs) does, and each member's
 * turn is taken before their e-mail goes, so that nobody gets two. A one-click List-Unsubscribe (RFC 8058) and the
 * switch on /profil stop them.
 */
import { claimJobRun } from '../db/job-runs';
import type { Db, DbOrTx } from '../db';
import { courseReminder, sendWith, type MailDeps } from '../mail';
import { sign, verifySignature } from '../signing';
import * as queries from './queries';
import type { ReaderCache } from './reader-cache';
import { progressOf } from './service';

export const REMINDER_IDLE_DAYS = 7;
export const REMINDER_GAP_DAYS = 14;
const JOB = 'course-reminders';

export interface ReminderDeps {
	db: Db;
	readers: ReaderCache;
	mail: MailDeps;
	origin: URL;
	signingSecret: string;
}

/** The unsubscribe link's token: the member's id, signed (it changes nothing but their reminders). */
const tokenMessage = (userId: string) => `course-reminders:${userId}`;
export const unsubscribeToken = (secret: string, userId: string) =>
	`${userId}.${sign(secret, tokenMessage(userId))}`;

export function userOfUnsubscribeToken(secret: string, token: string): string | null {
	const match = /^([0-9a-f-]{36})\.([\w-]{16,128})$/.exec(token);
	if (!match) return null;
	return verifySignature(secret, tokenMessage(match[1]!), match[2]!) ? match[1]! : null;
}

export const unsubscribeUrl = (deps: Pick<ReminderDeps, 'origin' | 'signingSecret'>, userId: string) =>
	new URL(`/rappels/${unsubscribeToken(deps.signingSecret, userId)}`, deps.origin).href;

/**
 * Today's reminders, if this instance takes the day's turn (`force`: whatever the day's turn, as a test or an
 * operator asks). Returns how many were sent.
 */
export async function sendReminders(deps: ReminderDeps, now = new Date(), force = false): Promise<number> {
	if (!force && !(await claimJobRun(deps.db, JOB, now, new Date(now.getTime() - 20 * 60 * 60 * 1000))))
		return 0;
	let sent = 0;
	for (const member of await queries.reminderCandidates(
		deps.db,
		now,
		REMINDER_IDLE_DAYS,
		REMINDER_GAP_DAYS
	)) {
		const progress = await progressOf(deps.db, deps.readers, member.id);
		// Finished, or nothing published: nothing to come back to.
		if (!progress.next) continue;
		if (!(await queries.claimReminder(deps.db, member.id, now, REMINDER_GAP_DAYS))) continue;
		const link = unsubscribeUrl(deps, member.id);
		await sendWith(deps.mail, {
			to: { name: member.name, address: member.email },
			template: 'course-reminder',
			...courseReminder(
				member.name.trim().split(/\s+/)[0] || member.name,
				{
					title: progress.next.title,
					url: new URL(`/cours/${progress.next.slug}`, deps.origin).href,
					resumeAt: progress.next.resumeAt
				},
				{ completed: progress.completed, total: progress.total },
				link
			),
			headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
		});
		sent++;
	}
	return sent;
}

/** The one-click link (or its page's button): reminders off. False for a token that is not one. */
export async function unsubscribe(db: DbOrTx, secret: string, token: string): Promise<boolean> {
	const userId = userOfUnsubscribeToken(secret, token);
	if (!userId) return false;
	await queries.setRemindersOff(db, userId, true);
	return true;
}

export const setReminders = (db: DbOrTx, userId: string, on: boolean) =>
	queries.setRemindersOff(db, userId, !on);

export async function remindersOf(db: DbOrTx, userId: string) {
	const row = await queries.remindersOf(db, userId);
	return { on: row.unsubscribedAt === null, lastSentAt: row.lastSentAt };
}
