/**
 * What a real PostgreSQL server answers when it is in no state to serve — a database closed to connections for
 * maintenance (55000), a read-only transaction as on a replica or a demoted primary (25006) — is an outage to
 * the application (503 and Retry-After, one log line), not a bug (a 500 with a stack). Issue « What we promise,
 * held at the edges », point 4. On PostgreSQL only: PGlite has neither state.
 */
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
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
});
