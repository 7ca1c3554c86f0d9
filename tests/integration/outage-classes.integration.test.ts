/**
 * What a real PostgreSQL server answers when it is in no state to serve — a database closed to connections for
 * maintenance (55000), a read-only transaction as on a replica or a demoted primary (25006) — is an outage to
 * the application (503 and Retry-After, one log line), not a bug (a 500 with a stack). Issue « What we promise,
 * held at the edges », point 4. On PostgreSQL only: PGlite has neither state.
 */
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/lib/server/db';
import { isDatabaseUnavailable } from '../../src/lib/server/db/unavailable';
import { createEmptyPostgresDatabase, serverUrl } from '../helpers/database';

describe.skipIf(!serverUrl)('PostgreSQL states that are outages', () => {
	it('a database refusing connections for maintenance (55000)', async () => {
		const database = await createEmptyPostgresDatabase();
		const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
		const name = new URL(database.url).pathname.slice(1);
		try {
			await admin.unsafe(`alter database ${name} allow_connections false`);
			const client = postgres(database.url, { max: 1, onnotice: () => {} });
			const failure = await client`select 1`.then(
				() => null,
				(error: unknown) => error
			);
			await client.end();
			expect((failure as { code?: string }).code).toBe('55000');
			expect(isDatabaseUnavailable(failure)).toBe(true);
		} finally {
			await admin.unsafe(`alter database ${name} allow_connections true`);
			await admin.end();
			await database.drop();
		}
	});

	it('a write in a read-only transaction, as on a replica (25006)', async () => {
		const database = await createEmptyPostgresDatabase();
		const client = postgres(database.url, { max: 1, onnotice: () => {} });
		try {
			const failure = await client
				.begin('read only', (sql) => sql`create table t (id int)`)
				.then(
					() => null,
					(error: unknown) => error
				);
			expect((failure as { code?: string }).code).toBe('25006');
			expect(isDatabaseUnavailable(failure)).toBe(true);
		} finally {
			await client.end();
			await database.drop();
		}
	});

	it('the server’s pool cancels a statement past its time and a lock waited for too long: an outage, not a hang', async () => {
		const database = await createEmptyPostgresDatabase();
		const server = openDatabase({ url: database.url, max: 2, timeouts: { statementMs: 300, lockMs: 200 } });
		const other = postgres(database.url, { max: 1, onnotice: () => {} });
		try {
			// Migrations run on a connection of their own, without the limits (a large table may take minutes).
			await server.migrate();
			const started = Date.now();
			const slow = await server.db.execute(sql`select pg_sleep(5)`).then(
				() => null,
				(error: unknown) => error
			);
			expect(isDatabaseUnavailable(slow)).toBe(true);
			// A table held by maintenance (an ALTER, a VACUUM FULL): the page's read gives up.
			await other.begin(async (tx) => {
				await tx`lock table users in access exclusive mode`;
				const blocked = await server.db.execute(sql`select count(*) from users`).then(
					() => null,
					(error: unknown) => error
				);
				expect(
					(blocked as { cause?: { code?: string } }).cause?.code ?? (blocked as { code?: string }).code
				).toBe('55P03');
				expect(isDatabaseUnavailable(blocked)).toBe(true);
			});
			// Both within their limits, far from the 5 s the statement asked for.
			expect(Date.now() - started).toBeLessThan(4_000);
		} finally {
			await other.end();
			await server.close();
			await database.drop();
		}
	});
});
