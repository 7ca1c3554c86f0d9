/**
 * The admin's queries at the size a site reaches after years (issue « Years of use », point 6), on PostgreSQL —
 * PGlite plans alike but this guard reads the server's planner: a few thousand rows per table, then each query's
 * plan (EXPLAIN) must find its rows through an index where one applies, never by reading a whole large table.
 * First: the audit trail, whose subjects were named with `leads.id::text = subject_id` (no index serves a cast key:
 * every lead read once per row of the page).
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectAuditEvents } from '../../src/lib/server/audit/queries';
import { threadsForAdmins } from '../../src/lib/server/training/queries';
import { count } from 'drizzle-orm';
import { leads } from '../../src/lib/server/db/schema';
import { leadsPerWeekBySource } from '../../src/lib/server/insights/queries/dashboard';
import { learnerRows, learnersStatement } from '../../src/lib/server/insights/queries/learners';
import {
	countOpen,
	countTabsStatement,
	FAILED_NOTIFICATIONS,
	selectLeads,
	selectLeadsAfter,
	type LeadCursor
} from '../../src/lib/server/leads/queries';
import { seedScale } from '../../bench/scale-seed';
import { AUDIT_PAGE_SIZE, auditPage } from '../../src/lib/server/audit/service';
import { listUsers, USERS_PAGE_SIZE } from '../../src/lib/server/auth/administration';
import {
	listCandidatures,
	PAGE_SIZE as CANDIDATURES_PAGE_SIZE
} from '../../src/lib/server/candidatures/service';
import { ARTICLES_PER_PAGE } from '../../src/lib/content/model';
import { blogPage } from '../../src/lib/server/content/blog';
import { learnersPage, learnersReport, LEARNERS_PAGE_SIZE } from '../../src/lib/server/insights/learners';
import { inboxPage, INBOX_PAGE_SIZE } from '../../src/lib/server/leads/service';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

const onPostgres = driverName === 'postgres';
let database: TestDatabase;
let client: postgres.Sql;

type Planned =
	{ toSQL(): { sql: string; params: unknown[] } } | { getQuery(): { sql: string; params: unknown[] } };

/** The plan PostgreSQL chooses for a Drizzle query (a builder's or a raw statement's), as text. */
async function planOf(query: Planned): Promise<string> {
	const { sql: text, params } = 'toSQL' in query ? query.toSQL() : query.getQuery();
	const rows = await client.unsafe(`explain ${text}`, params as never[]);
	return rows.map((row) => String(row['QUERY PLAN'])).join('\n');
}

describe.skipIf(!onPostgres)(`query plans at the size of years of use on ${driverName}`, () => {
	beforeAll(async () => {
		database = await createTestDatabase();
		client = postgres(database.url!, { max: 1, onnotice: () => {} });
		// The reference site of `npm run bench scale` at a twentieth: 10,000 leads, 15,000 e-mails, 250 members with
		// their progress, 5,000 audit rows naming leads, a year of audience (plain SQL: seconds, not minutes).
		await seedScale(database.db, 0.05);
		// 5,000 more accounts, a thread each with two messages; 100 wait for an answer (the trainer's list).
		await database.db.execute(sql`
			insert into users (email, name, password_hash)
			select 'eleve' || i || '@exemple.fr', 'Élève ' || i, 'x' from generate_series(1, 5000) as i`);
		await database.db.execute(sql`
			insert into question_threads (user_id, module_title, awaiting_since)
			select id, 'Un module', case when row_number() over () <= 100 then now() end from users
			where email like 'eleve%'`);
		await database.db.execute(sql`
			insert into question_messages (thread_id, author, body)
			select id, a, 'Un message' from question_threads, (values ('member'), ('trainer')) as authors(a)
			where module_id is null`);
		await database.db.execute(sql`analyze`);
	});
	afterAll(async () => {
		await client?.end();
		await database?.dispose();
	});

	it('the audit trail names its subjects through their keys: no sequential scan of leads', async () => {
		const plan = await planOf(selectAuditEvents(database.db, {}, 50, 0));
		expect(plan).not.toMatch(/Seq Scan on leads/);
		expect(plan).toMatch(/Index Scan using leads_pkey on leads/);
		// And the names are the leads' own.
		const page = await selectAuditEvents(database.db, {}, 50, 0);
		expect(page).toHaveLength(50);
		expect(page.every((row) => /^Client \d+$/.test(row.subjectName ?? ''))).toBe(true);
	});

	it('the trainer’s unanswered questions are found through their index, each thread’s messages counted by theirs', async () => {
		const plan = await planOf(threadsForAdmins(database.db, 'open', 200));
		expect(plan).not.toMatch(/Seq Scan on question_threads/);
		expect(plan).not.toMatch(/Seq Scan on question_messages/);
		const open = (await threadsForAdmins(database.db, 'open', 200)).filter(
			(t) => t.moduleTitle === 'Un module'
		);
		expect(open).toHaveLength(100);
		expect(open.every((thread) => thread.messages === 2)).toBe(true);
	});

	it('the dashboard’s leads per week and source, over twelve months, are read from their daily counts, not from the leads', async () => {
		const year = { from: '2025-12-07', to: '2026-12-06', days: 365 };
		for (const filter of [{}, { page: '/contact' }, { source: 'Google' }]) {
			const plan = await planOf(leadsPerWeekBySource(database.db, year, filter) as unknown as Planned);
			// Not a lead read: a year is a few hundred rows of leads_daily (a row per day and source, page, campaign;
			// small enough that the planner may read it whole, as here).
			expect(plan).not.toMatch(/ on leads\b/);
			expect(plan).toMatch(/ on leads_daily\b/);
		}
	});

	it('the inbox’s work waiting, its count and the failed notices are found among years of handled leads by their indexes', async () => {
		for (const query of [
			selectLeadsAfter(database.db, { spam: false, handled: false }, null, 50),
			selectLeadsAfter(
				database.db,
				{ spam: false, handled: false },
				{ at: '2025-06-01 00:00:00+00', id: '00000000-0000-0000-0000-000000000000' },
				50
			),
			database.db
				.select({ n: count() })
				.from(leads)
				.where(sql`not ${leads.spam} and not ${leads.handled}`),
			selectLeads(database.db, FAILED_NOTIFICATIONS),
			// The spam tab, and the oldest page of a tab (read from the other end of the same index).
			selectLeadsAfter(database.db, { spam: true }, null, 51),
			selectLeadsAfter(database.db, { spam: false, handled: true }, null, 51, 'newer')
		])
			expect(await planOf(query)).not.toMatch(/Seq Scan on leads/);
		// The tabs' counts: each stops at its bound (a Limit over every read of leads), the work waiting and the spam
		// from their partial indexes.
		const counts = await planOf(database.db.execute(countTabsStatement({}, 1000)) as unknown as Planned);
		expect(counts.match(/-> {2}Limit/g)).toHaveLength(4);
		expect(counts).toMatch(/leads_open_idx/);
		expect(counts).toMatch(/leads_spam_idx/);
		// And the walk by keys gives every open lead once.
		let cursor: LeadCursor | null = null;
		const seen = new Set<string>();
		for (;;) {
			const batch = await selectLeadsAfter(database.db, { spam: false, handled: false }, cursor, 200);
			for (const { lead } of batch) seen.add(lead.id);
			if (batch.length < 200) break;
			cursor = { at: batch.at(-1)!.at, id: batch.at(-1)!.lead.id };
		}
		expect(seen.size).toBe(await countOpen(database.db));
	});

	it('the follow-up reads each table once for every member, never once per member', async () => {
		const text = await planOf(database.db.execute(learnersStatement()) as unknown as Planned);
		// A correlated subquery per member (SubPlan) read module_progress 5,000 times at years of use.
		expect(text).not.toMatch(/SubPlan/);
		const rows = await learnerRows(database.db);
		expect(rows).toHaveLength(250);
	});

	it('every admin list and the blog answer at most their page of rows, whatever the tables hold', async () => {
		const db = database.db;
		const inbox = await inboxPage(db, 'toutes', {}, null);
		expect(inbox.leads).toHaveLength(INBOX_PAGE_SIZE);
		const oldest = await inboxPage(db, 'toutes', {}, { oldest: true });
		expect(oldest.leads).toHaveLength(INBOX_PAGE_SIZE);
		const trail = await auditPage(db, {}, 1_000_000);
		expect(trail.events.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
		expect((await auditPage(db, {}, 1)).events).toHaveLength(AUDIT_PAGE_SIZE);
		expect((await listUsers(db, {}, 1)).users).toHaveLength(USERS_PAGE_SIZE);
		expect((await listCandidatures(db, {}, 1)).rows).toHaveLength(CANDIDATURES_PAGE_SIZE);
		const members = learnersPage(await learnersReport(db), { stuckOnly: false, page: 1 });
		expect(members.learners).toHaveLength(LEARNERS_PAGE_SIZE);
		const blog = (await blogPage(db, 1))!;
		expect(blog.total).toBeGreaterThan(ARTICLES_PER_PAGE);
		expect(blog.articles).toHaveLength(ARTICLES_PER_PAGE);
	});
});
