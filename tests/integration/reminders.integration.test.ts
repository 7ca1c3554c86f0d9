/**
 * « Reprenez là où vous en étiez » (issue « Learning, part 3 », point 5), on the real database and a real SMTP
 * server: a member idle for a week gets one e-mail naming the module and where they stopped, with a one-click
 * List-Unsubscribe (RFC 8058); not again before 14 days; never after unsubscribing; and of three instances running
 * the daily job at once, one sends it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import { ReaderCache } from '../../src/lib/server/courses/reader-cache';
import * as reminders from '../../src/lib/server/courses/reminders';
import {
	courseReminders,
	jobRuns,
	memberships,
	moduleProgress,
	modules,
	users,
	videoPositions
} from '../../src/lib/server/db/schema';
import { smtpTransport } from '../../src/lib/server/mail/transport';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

let database: TestDatabase;
let smtp: RunningSmtp;
const DAY = 24 * 60 * 60 * 1000;
const START = new Date('2026-06-01T08:00:00Z');
const at = (days: number) => new Date(START.getTime() + days * DAY);
let ids: { idle: string; busy: string; finished: string; gone: string };
let lessonId: string;

const deps = () => ({
	db: database.db,
	readers: new ReaderCache(),
	mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' },
	origin: new URL('https://atelier.test'),
	signingSecret: 's'.repeat(32)
});

beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
	useDepsForTests({ db: database.db });
});
afterAll(async () => {
	useDepsForTests(null);
	await smtp.close();
	await database.dispose();
});
beforeEach(async () => {
	const db = database.db;
	await db.delete(courseReminders);
	await db.delete(jobRuns);
	await db.delete(moduleProgress);
	await db.delete(videoPositions);
	await db.delete(memberships);
	await db.delete(modules);
	await db.delete(users);
	smtp.received.length = 0;
	const [first, lesson] = await db
		.insert(modules)
		.values([
			{ slug: 'fondations', title: 'Les fondations', position: 0, published: true },
			{ slug: 'filmer', title: 'Filmer un chantier', position: 1, published: true, video: null }
		])
		.returning();
	lessonId = lesson!.id;
	const people = await db
		.insert(users)
		.values([
			{ email: 'idle@exemple.fr', name: 'Inès Idle', passwordHash: 'x' },
			{ email: 'busy@exemple.fr', name: 'Bastien Busy', passwordHash: 'x' },
			{ email: 'fini@exemple.fr', name: 'Fanny Finie', passwordHash: 'x' },
			{ email: 'parti@exemple.fr', name: 'Paul Parti', passwordHash: 'x' }
		])
		.returning();
	const [idle, busy, finished, gone] = people.map((p) => p.id) as [string, string, string, string];
	ids = { idle, busy, finished, gone };
	const joined = at(-30);
	await db.insert(memberships).values([
		{ userId: idle, stripeSubscriptionId: 'sub_i', status: 'active', stateAt: joined, createdAt: joined },
		{ userId: busy, stripeSubscriptionId: 'sub_b', status: 'active', stateAt: joined, createdAt: joined },
		{ userId: finished, stripeSubscriptionId: 'sub_f', status: 'active', stateAt: joined, createdAt: joined },
		{ userId: gone, stripeSubscriptionId: 'sub_g', status: 'canceled', stateAt: joined, createdAt: joined }
	]);
	await db.insert(moduleProgress).values([
		{ userId: idle, moduleId: first!.id, completedAt: at(-10) },
		{ userId: busy, moduleId: first!.id, completedAt: at(-2) },
		{ userId: finished, moduleId: first!.id, completedAt: at(-20) },
		{ userId: finished, moduleId: lesson!.id, completedAt: at(-20) },
		{ userId: gone, moduleId: first!.id, completedAt: at(-20) }
	]);
	// Inès stopped 4 min 12 into the lesson's video, ten days ago.
	await db
		.insert(videoPositions)
		.values({ userId: idle, moduleId: lesson!.id, seconds: 252, updatedAt: at(-10) });
});

const recipients = () => smtp.received.flatMap((m) => m.envelopeTo);

describe(`course reminders on ${driverName}`, () => {
	it('one e-mail to the member idle for a week, naming the module, with a one-click unsubscribe', async () => {
		expect(await reminders.sendReminders(deps(), START)).toBe(1);
		await smtp.waitFor(1);
		expect(recipients()).toEqual(['idle@exemple.fr']);
		const [mail] = smtp.received;
		expect(mail!.parsed.subject).toBe('Reprenez là où vous en étiez');
		expect(mail!.parsed.text).toContain('« Filmer un chantier »');
		expect(mail!.parsed.text).toContain('https://atelier.test/cours/filmer');
		const header = (name: string) => mail!.parsed.headers.find((h) => h.key === name)?.value;
		const link = /^<(https:\/\/atelier\.test\/rappels\/[^>]+)>$/.exec(header('list-unsubscribe') ?? '')?.[1];
		expect(link).toBeTruthy();
		expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
		expect(mail!.parsed.text).toContain(link);
	});

	it('not again before 14 days, again after; never after unsubscribing, by the link or the profile', async () => {
		// Bastien would be idle too by day 13: only Inès is followed here.
		await database.db.update(memberships).set({ status: 'canceled' }).where(eq(memberships.userId, ids.busy));
		const run = (day: number) => reminders.sendReminders(deps(), at(day), true);
		expect(await run(0)).toBe(1);
		expect(await run(1)).toBe(0);
		expect(await run(13)).toBe(0);
		expect(await run(14)).toBe(1);
		await smtp.waitFor(2);
		expect(recipients()).toEqual(['idle@exemple.fr', 'idle@exemple.fr']);

		// The link's token turns them off; a forged or altered one changes nothing.
		const token = reminders.unsubscribeToken(deps().signingSecret, ids.idle);
		expect(
			await reminders.unsubscribe(database.db, deps().signingSecret, `${ids.busy}.${token.split('.')[1]}`)
		).toBe(false);
		expect(await reminders.unsubscribe(database.db, deps().signingSecret, 'pas-un-jeton')).toBe(false);
		expect(await reminders.unsubscribe(database.db, deps().signingSecret, token)).toBe(true);
		expect(await run(40)).toBe(0);
		expect(await reminders.remindersOf(database.db, ids.idle)).toMatchObject({ on: false });

		// Back on from the profile; off again from it.
		await reminders.setReminders(database.db, ids.idle, true);
		expect(await run(60)).toBe(1);
		await reminders.setReminders(database.db, ids.idle, false);
		expect(await run(80)).toBe(0);
	});

	it('of three instances running the daily job at once, one sends: one e-mail', async () => {
		const sent = await Promise.all([1, 2, 3].map(() => reminders.sendReminders(deps(), START)));
		expect(sent.sort()).toEqual([0, 0, 1]);
		// And even when each forces its run (an operator's), a member's turn is taken once.
		await database.db.delete(courseReminders);
		const forced = await Promise.all([1, 2, 3].map(() => reminders.sendReminders(deps(), START, true)));
		expect(forced.reduce((a, b) => a + b, 0)).toBe(1);
		await smtp.waitFor(2);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(recipients()).toEqual(['idle@exemple.fr', 'idle@exemple.fr']);
		// The next day's run is another turn.
		expect(await reminders.sendReminders(deps(), at(1))).toBe(0);
		expect(await database.db.select().from(jobRuns)).toHaveLength(1);
	});

	it('progress puts the reminder off: a video watched today counts', async () => {
		await database.db
			.update(videoPositions)
			.set({ updatedAt: at(0) })
			.where(eq(videoPositions.moduleId, lessonId));
		expect(await reminders.sendReminders(deps(), START, true)).toBe(0);
	});
});
