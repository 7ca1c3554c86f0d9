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
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

const onPostgres = driverName === 'postgres';
let database: TestDatabase;
let client: postgres.Sql;

/** The plan PostgreSQL chooses for a Drizzle query, as text. */
async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
	const { sql: text, params } = query.toSQL();
	const rows = await client.unsafe(`explain ${text}`, params as never[]);
	return rows.map((row) => String(row['QUERY PLAN'])).join('\n');
}

describe.skipIf(!onPostgres)(`query plans at the size of years of use on ${driverName}`, () => {
	beforeAll(async () => {
		database = await createTestDatabase();
		client = postgres(database.url!, { max: 1, onnotice: () => {} });
		// 5,000 leads and 5,000 audit rows naming them, in two statements (plain SQL: seconds, not minutes).
		await database.db.execute(sql`
			insert into leads (kind, name, email, message, created_at)
			select 'contact', 'Client ' || i, 'client' || i || '@exemple.fr', 'Un message', now() - (i || ' minutes')::interval
			from generate_series(1, 5000) as i`);
		await database.db.execute(sql`
			insert into audit_events (actor_email, kind, subject_type, subject_id, at)
			select 'admin@atelier.test', 'lead.deleted', 'lead', id::text, created_at from leads`);
		// 5,000 members, a thread each with two messages; 100 wait for an answer (the trainer's list).
		await database.db.execute(sql`
			insert into users (email, name, password_hash)
			select 'membre' || i || '@exemple.fr', 'Membre ' || i, 'x' from generate_series(1, 5000) as i`);
		await database.db.execute(sql`
			insert into question_threads (user_id, module_title, awaiting_since)
			select id, 'Un module', case when row_number() over () <= 100 then now() end from users`);
		await database.db.execute(sql`
			insert into question_messages (thread_id, author, body)
			select id, a, 'Un message' from question_threads, (values ('member'), ('trainer')) as authors(a)`);
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
		const open = await threadsForAdmins(database.db, 'open', 200);
		expect(open).toHaveLength(100);
		expect(open.every((thread) => thread.messages === 2)).toBe(true);
	});
});
