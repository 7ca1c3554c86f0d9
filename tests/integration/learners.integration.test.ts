/**
 * Who needs a hand (issue « Learning, part 3 », point 4), on the real database: each member's progress, quiz results
 * and last activity, « bloqué » after 14 days without progress (only for members still following an unfinished
 * course), each module's funnel (started, completed, completion rate, quiz pass rate, average attempts), the CSV
 * with its formulas defused, and the route for admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import {
	learnerDetail,
	learnersCsv,
	learnersReport,
	STUCK_AFTER_DAYS
} from '../../src/lib/server/insights/learners';
import { countStuck } from '../../src/lib/server/insights/queries/learners';
import {
	emails,
	memberships,
	moduleProgress,
	modules,
	quizAttempts,
	users,
	videoPositions
} from '../../src/lib/server/db/schema';
import { GET as csvRoute } from '../../src/routes/admin/suivi.csv/+server';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
const NOW = new Date('2026-06-30T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);
const quiz = {
	passPercent: 100,
	questions: [
		{
			prompt: 'Q ?',
			choices: [
				{ text: 'A', correct: true },
				{ text: 'B', correct: false }
			]
		}
	]
};

beforeAll(async () => {
	database = await createTestDatabase();
	useDepsForTests({ db: database.db });
	const db = database.db;
	const [one, two, draft] = await db
		.insert(modules)
		.values([
			{ slug: 'un', title: 'Un', position: 0, published: true },
			{ slug: 'deux', title: 'Deux', position: 1, published: true, quiz },
			{ slug: 'brouillon', title: 'Brouillon', position: 2, published: false }
		])
		.returning();
	const people = await db
		.insert(users)
		.values([
			{ email: 'fini@exemple.fr', name: 'Fanny Finie', passwordHash: 'x' },
			{ email: 'bloque@exemple.fr', name: 'Bruno Bloqué', passwordHash: 'x' },
			{ email: 'actif@exemple.fr', name: 'Alice Active', passwordHash: 'x' },
			{ email: 'parti@exemple.fr', name: 'Paul Parti', passwordHash: 'x' },
			{ email: 'neuf@exemple.fr', name: '=HYPERLINK("http://x")', passwordHash: 'x' },
			{ email: 'visiteur@exemple.fr', name: 'Sans abonnement', passwordHash: 'x' }
		])
		.returning();
	const [finished, stuck, active, gone, fresh] = people;
	await db.insert(memberships).values([
		{
			userId: finished!.id,
			stripeSubscriptionId: 'sub_1',
			status: 'active',
			stateAt: daysAgo(60),
			createdAt: daysAgo(60)
		},
		{
			userId: stuck!.id,
			stripeSubscriptionId: 'sub_2',
			status: 'active',
			stateAt: daysAgo(60),
			createdAt: daysAgo(60)
		},
		{
			userId: active!.id,
			stripeSubscriptionId: 'sub_3',
			status: 'active',
			stateAt: daysAgo(30),
			createdAt: daysAgo(30)
		},
		{
			userId: gone!.id,
			stripeSubscriptionId: 'sub_4',
			status: 'canceled',
			stateAt: daysAgo(40),
			createdAt: daysAgo(90)
		},
		// Joined three days ago, nothing done yet: not stuck.
		{
			userId: fresh!.id,
			stripeSubscriptionId: 'sub_5',
			status: 'active',
			stateAt: daysAgo(3),
			createdAt: daysAgo(3)
		}
	]);
	await db.insert(moduleProgress).values([
		{ userId: finished!.id, moduleId: one!.id, completedAt: daysAgo(50) },
		{ userId: finished!.id, moduleId: two!.id, completedAt: daysAgo(40) },
		{ userId: finished!.id, moduleId: draft!.id, completedAt: daysAgo(40) },
		{ userId: stuck!.id, moduleId: one!.id, completedAt: daysAgo(20) },
		{ userId: active!.id, moduleId: one!.id, completedAt: daysAgo(25) },
		{ userId: gone!.id, moduleId: one!.id, completedAt: daysAgo(80) }
	]);
	await db.insert(quizAttempts).values([
		{
			userId: finished!.id,
			moduleId: two!.id,
			score: 0,
			correct: 0,
			total: 1,
			passed: false,
			answers: [[1]],
			createdAt: daysAgo(41)
		},
		{
			userId: finished!.id,
			moduleId: two!.id,
			score: 100,
			correct: 1,
			total: 1,
			passed: true,
			answers: [[0]],
			createdAt: daysAgo(40)
		},
		{
			userId: stuck!.id,
			moduleId: two!.id,
			score: 0,
			correct: 0,
			total: 1,
			passed: false,
			answers: [[1]],
			createdAt: daysAgo(18)
		}
	]);
	// Alice watched the second lesson two days ago: that is progress.
	await db
		.insert(videoPositions)
		.values({ userId: active!.id, moduleId: two!.id, seconds: 30, updatedAt: daysAgo(2) });
});
afterAll(async () => {
	useDepsForTests(null);
	await database.dispose();
});

describe(`the members' follow-up on ${driverName}`, () => {
	it('says who is where, who is stuck, and how each module fares', async () => {
		const report = await learnersReport(database.db, NOW);
		const byName = new Map(report.learners.map((l) => [l.name, l]));
		expect(report.learners.map((l) => l.name)).not.toContain('Sans abonnement');
		expect(byName.get('Fanny Finie')).toMatchObject({
			completed: 2,
			total: 2,
			percent: 100,
			quizzesPassed: 1,
			quizzes: 1,
			attempts: 2,
			stuck: false
		});
		expect(byName.get('Bruno Bloqué')).toMatchObject({
			completed: 1,
			percent: 50,
			quizzesPassed: 0,
			attempts: 1,
			stuck: true,
			daysIdle: 18
		});
		expect(byName.get('Alice Active')).toMatchObject({ completed: 1, stuck: false, daysIdle: 2 });
		expect(byName.get('Paul Parti')).toMatchObject({ following: false, stuck: false });
		expect(byName.get('=HYPERLINK("http://x")')).toMatchObject({ active: false, stuck: false, daysIdle: 3 });
		expect(report).toMatchObject({ following: 4, stuck: 1, finished: 1 });

		expect(report.modules).toEqual([
			{
				title: 'Un',
				slug: 'un',
				started: 4,
				completed: 4,
				completionRate: 100,
				hasQuiz: false,
				passRate: null,
				averageAttempts: null
			},
			{
				title: 'Deux',
				slug: 'deux',
				started: 3,
				completed: 1,
				completionRate: 25,
				hasQuiz: true,
				passRate: 50,
				averageAttempts: 1.5
			}
		]);
	});

	it('counts the stuck in the database as the report does, on either side of the fourteen days', async () => {
		// The dashboard's count (a statement) and the report's rule (learners.ts) must never disagree: a day before,
		// on and after each member's threshold, and once past paid periods.
		for (const days of [-5, -4, 0, 3, 4, 11, 12, 40, 400]) {
			const now = new Date(NOW.getTime() + days * 24 * 60 * 60 * 1000);
			const report = await learnersReport(database.db, now);
			expect({ days, stuck: await countStuck(database.db, now, STUCK_AFTER_DAYS) }).toEqual({
				days,
				stuck: report.stuck
			});
		}
		expect(await countStuck(database.db, NOW, STUCK_AFTER_DAYS)).toBe(1);
	});

	it('exports a spreadsheet whose cells are never formulas, for admins only', async () => {
		const csv = await new Response(learnersCsv(database.db, NOW)).text();
		expect(csv).toContain('Bruno Bloqué');
		// Everyone, in the report's order, one row each; read two members at a time (its walk by keys), the same file.
		const report = await learnersReport(database.db, NOW);
		const lines = csv.trim().split('\r\n').slice(1);
		expect(lines).toHaveLength(report.learners.length);
		expect(lines.map((line) => line.split(';')[1])).toEqual(report.learners.map((l) => l.email));
		expect(await new Response(learnersCsv(database.db, NOW, 2)).text()).toBe(csv);
		expect(csv).not.toMatch(/(^|[;,\n])=HYPERLINK/);
		expect(csv).toContain("'=HYPERLINK");
		const event = (user: { isAdmin: boolean } | null) => ({
			request: new Request('http://localhost/admin/suivi.csv'),
			url: new URL('http://localhost/admin/suivi.csv'),
			route: { id: '/admin/suivi.csv' },
			params: {},
			locals: {
				user: user && { id: crypto.randomUUID(), email: 'x@x.fr', name: 'X', ...user },
				session: null
			},
			cookies: { get: () => undefined, set: () => {}, delete: () => {} },
			getClientAddress: () => '10.0.0.1'
		});
		const answer = await (csvRoute as (e: unknown) => Promise<Response>)(event({ isAdmin: true }));
		expect(answer.headers.get('content-disposition')).toMatch(/suivi-des-membres-\d{4}-\d{2}-\d{2}\.csv/);
		expect(await answer.text()).toContain('Fanny Finie');
		await expect(
			(csvRoute as (e: unknown) => Promise<Response>)(event({ isAdmin: false }))
		).rejects.toBeTruthy();
	});

	it('gives each member a page: every module as they went through it, each attempt, the reminders sent', async () => {
		const db = database.db;
		const people = await db.select().from(users);
		const id = (email: string) => people.find((p) => p.email === email)!.id;
		await db.insert(emails).values([
			{
				to: 'Bloque@exemple.fr',
				subject: 'Reprenez',
				template: 'course-reminder',
				status: 'sent',
				createdAt: daysAgo(7)
			},
			{
				to: 'bloque@exemple.fr',
				subject: 'Re',
				template: 'course-reminder',
				status: 'failed',
				createdAt: daysAgo(1)
			},
			{
				to: 'bloque@exemple.fr',
				subject: 'Autre',
				template: 'member-welcome',
				status: 'sent',
				createdAt: daysAgo(60)
			},
			{
				to: 'actif@exemple.fr',
				subject: 'Reprenez',
				template: 'course-reminder',
				status: 'sent',
				createdAt: daysAgo(5)
			}
		]);
		const stuck = (await learnerDetail(db, id('bloque@exemple.fr'), NOW))!;
		expect(stuck.learner).toMatchObject({ name: 'Bruno Bloqué', completed: 1, stuck: true });
		expect(stuck.modules.map((m) => m.title)).toEqual(['Un', 'Deux']);
		expect(stuck.modules[0]).toMatchObject({ completedAt: daysAgo(20), videoSeconds: null, attempts: [] });
		expect(stuck.modules[1]).toMatchObject({
			completedAt: null,
			hasQuiz: true,
			attempts: [{ score: 0, passed: false, at: daysAgo(18) }]
		});
		expect(stuck.reminders.sent).toEqual([
			{ at: daysAgo(1), delivered: false },
			{ at: daysAgo(7), delivered: true }
		]);
		const finished = (await learnerDetail(db, id('fini@exemple.fr'), NOW))!;
		expect(finished.modules[1]!.attempts.map((a) => [a.score, a.passed])).toEqual([
			[0, false],
			[100, true]
		]);
		expect(finished.reminders).toEqual({ sent: [], unsubscribedAt: null });
		const active = (await learnerDetail(db, id('actif@exemple.fr'), NOW))!;
		expect(active.modules[1]).toMatchObject({ videoSeconds: 30, videoSavedAt: daysAgo(2) });
		// An account without a membership has no page; nor has an unknown one.
		expect(await learnerDetail(db, id('visiteur@exemple.fr'), NOW)).toBeNull();
		expect(await learnerDetail(db, crypto.randomUUID(), NOW)).toBeNull();
	});
});
