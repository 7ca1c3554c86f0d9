import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isHealthy, openDatabase, schema, type DbOrTx } from '../../src/lib/server/db';
import { isDatabaseUnavailable } from '../../src/lib/server/db/unavailable';
import {
	appliedMigrations,
	rowsOf,
	schemaLag,
	migrationSteps,
	NewerSchemaError,
	shippedMigrations
} from '../../src/lib/server/db/migrate';
import { appRelease } from '../../src/lib/server/version';
import { builtOnce } from '../../src/lib/server/db/built-once';
import { tidyEmbedded } from '../../src/lib/server/db/upkeep';
import { schemaTables } from '../../src/lib/server/backup/tables';
import { preparingStatementsOnPglite } from '../../src/lib/server/db/pglite-prepared';
import { createEmptyPostgresDatabase, createTestDatabase, driverName, serverUrl } from '../helpers/database';

const tablesOf = async (db: ReturnType<typeof openDatabase>['db']) => {
	const result = await db.execute<{ table_name: string }>(
		sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`
	);
	const rows = Array.isArray(result) ? result : (result as { rows: { table_name: string }[] }).rows;
	return rows.map((r) => r.table_name);
};

describe(`database on ${driverName}`, () => {
	const opened: { dispose(): Promise<void> }[] = [];
	afterAll(async () => {
		for (const d of opened) await d.dispose();
	});

	it('creates every table on an empty database, and a second migration changes nothing', async () => {
		const database = await createTestDatabase({ migrate: false });
		opened.push(database);
		await database.migrate();
		const tables = await tablesOf(database.db);
		expect(tables).toEqual(expect.arrayContaining(['sessions', 'site_images', 'users']));
		await database.migrate();
		expect(await tablesOf(database.db)).toEqual(tables);
	});

	it('names each migration it applies, records the release, and refuses a database a newer release migrated', async () => {
		const logged: string[] = [];
		const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(String(line)));
		const database = await createTestDatabase({ migrate: false });
		try {
			await database.migrate();
		} finally {
			spy.mockRestore();
		}
		opened.push(database);
		const applied = logged.map((l) => JSON.parse(l)).filter((l) => l.message === 'migration applied');
		expect(applied.map((l) => l.tag)).toEqual(shippedMigrations().map((m) => m.tag));
		const releases = await database.db.select().from(schema.appReleases);
		expect(releases).toEqual([
			expect.objectContaining({ version: appRelease().version, migration: shippedMigrations().at(-1)!.tag })
		]);

		// A later release migrated it further, then this one starts on it: refused, naming both, nothing run.
		await database.db.execute(
			sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', ${String(Date.now() + 86_400_000)})`
		);
		await database.db
			.insert(schema.appReleases)
			.values({ version: '9.1.0', commit: 'abcdef012345', migration: '0042_later' });
		expect(await schemaLag(database.db)).toEqual({ missing: 0, unknown: 1 });
		const refused = await database.migrate().catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(NewerSchemaError);
		expect((refused as Error).message).toContain('9.1.0, commit abcdef012345');
		expect((refused as Error).message).toContain(`this one (${appRelease().version}`);
		expect((refused as Error).message).toContain('npm run restore');
	});

	it('asks for a backup before migrating a database that had migrations, and migrates nothing when it fails', async () => {
		const shipped = shippedMigrations();
		const calls: { pending: string[]; appliedThen: number }[] = [];
		const beforeMigrating = async (pending: { tag: string }[]) => {
			calls.push({
				pending: pending.map((m) => m.tag),
				appliedThen: (await appliedMigrations(database.db)).length
			});
		};
		// A new database: nothing to back up.
		const fresh = await createTestDatabase({ migrate: false });
		opened.push(fresh);
		let database = fresh;
		await fresh.migrate({ beforeMigrating });
		expect(calls).toEqual([]);
		// Up to date: nothing pending, no call.
		await fresh.migrate({ beforeMigrating });
		expect(calls).toEqual([]);

		// One release behind: called once, with the pending migration, before it runs.
		database = await createTestDatabase({ migrate: false });
		opened.push(database);
		for (const step of migrationSteps(shipped.slice(0, -1))) await database.db.execute(sql.raw(step));
		const failed = await database
			.migrate({
				beforeMigrating: async () => {
					throw new Error('disk full');
				}
			})
			.catch((error: unknown) => error);
		expect((failed as Error).message).toBe('disk full');
		expect(await appliedMigrations(database.db)).toHaveLength(shipped.length - 1);
		// What a command that only reads (npm run stats) checks, and refuses, without migrating.
		expect(await schemaLag(database.db)).toEqual({ missing: 1, unknown: 0 });
		expect(await schemaLag(fresh.db)).toEqual({ missing: 0, unknown: 0 });
		await database.migrate({ beforeMigrating });
		expect(calls).toEqual([{ pending: [shipped.at(-1)!.tag], appliedThen: shipped.length - 1 }]);
		expect(await appliedMigrations(database.db)).toHaveLength(shipped.length);
	});

	it('reads and writes through the one typed db', async () => {
		const database = await createTestDatabase();
		opened.push(database);
		const [user] = await database.db
			.insert(schema.users)
			.values({ email: 'a@exemple.fr', name: 'A', passwordHash: 'x' })
			.returning();
		expect(user?.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(user?.isAdmin).toBe(false);
		await expect(
			database.db.insert(schema.users).values({ email: 'a@exemple.fr', name: 'B', passwordHash: 'y' })
		).rejects.toThrow();
	});

	it('runs a query built once on the handle it is given, with each run’s values', async () => {
		const database = await createTestDatabase();
		let builds = 0;
		const byName = builtOnce((db) => {
			builds++;
			return db
				.select({ email: schema.users.email })
				.from(schema.users)
				.where(eq(schema.users.name, sql.placeholder('name')))
				.prepare('users_by_name');
		});
		const emails = async (db: DbOrTx, name: string) =>
			(await byName(db).execute({ name })).map((row) => row.email);
		try {
			await database.db.insert(schema.users).values([
				{ email: 'a@exemple.fr', name: 'Anne', passwordHash: 'x' },
				{ email: 'b@exemple.fr', name: 'Bruno', passwordHash: 'x' }
			]);
			expect(await emails(database.db, 'Anne')).toEqual(['a@exemple.fr']);
			expect(await emails(database.db, 'Bruno')).toEqual(['b@exemple.fr']);
			expect(builds).toBe(1);
			// In a transaction, on the transaction: it sees the transaction's own rows, which are gone after it.
			await database.db
				.transaction(async (tx) => {
					await tx.insert(schema.users).values({ email: 'c@exemple.fr', name: 'Anne', passwordHash: 'x' });
					expect((await emails(tx, 'Anne')).sort()).toEqual(['a@exemple.fr', 'c@exemple.fr']);
					tx.rollback();
				})
				.catch(() => {});
			expect(builds).toBe(2);
			expect(await emails(database.db, 'Anne')).toEqual(['a@exemple.fr']);
			expect(builds).toBe(2);
		} finally {
			await database.dispose();
		}
	});

	it('answers the health check, and fails it once closed', async () => {
		const database = await createTestDatabase();
		expect(await isHealthy(database.db)).toBe(true);
		await database.dispose();
		expect(await isHealthy(database.db, 1000)).toBe(false);
	});

	it('tidies the embedded database as autovacuum would (PGlite runs none), and leaves PostgreSQL to its own', async () => {
		const database = await createTestDatabase();
		opened.push(database);
		await database.db.insert(schema.leads).values(
			Array.from({ length: 300 }, (_, i) => ({
				kind: 'contact' as const,
				name: `Personne ${i}`,
				email: `p${i}@exemple.fr`,
				message: `Demande ${i}`
			}))
		);
		// Retention's kind of work: rows deleted, which only a VACUUM gives back.
		await database.db.delete(schema.leads).where(sql`${schema.leads.name} like 'Personne 1%'`);
		const leadsTable = async () =>
			rowsOf<{ tuples: number; analysed: boolean }>(
				await database.db.execute(sql`
					select c.reltuples::int as tuples, s.last_analyze is not null as analysed
					from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
					where c.oid = 'public.leads'::regclass`)
			)[0]!;
		const tidied = await tidyEmbedded(database);
		if (driverName === 'pglite') {
			expect(tidied).toBe(schemaTables.length);
			// Its statistics now count the rows that are left (300 less Personne 1, 10…19, 100…199).
			expect(await leadsTable()).toEqual({ tuples: 300 - 111, analysed: true });
		} else {
			expect(tidied).toBe(0);
			expect((await leadsTable()).analysed).toBe(false);
		}
	});
});

describe.runIf(serverUrl)('PostgreSQL queries through the one typed db', () => {
	it('run as prepared statements, in a transaction and a savepoint too: one round trip a query after the first', async () => {
		const database = await createTestDatabase();
		const byEmail = (db: typeof database.db, email: string) =>
			db
				.select({ id: schema.users.id })
				.from(schema.users)
				.where(sql`${schema.users.email} = ${email}`);
		// Executions of this session's kept statement of that query (none when each run is parsed anew).
		const runsOfKept = async (db: typeof database.db) => {
			const result = await db.execute<{ runs: number }>(
				sql`select coalesce(sum(generic_plans + custom_plans), 0)::int as runs from pg_prepared_statements
					where statement like '%from "users" where "users"."email" = $1%'`
			);
			return (Array.isArray(result) ? result : (result as { rows: { runs: number }[] }).rows)[0]!.runs;
		};
		try {
			await database.db.transaction(async (tx) => {
				for (const email of ['a@exemple.fr', 'b@exemple.fr', 'c@exemple.fr']) await byEmail(tx, email);
				expect(await runsOfKept(tx)).toBe(3);
				await tx.transaction(async (savepoint) => {
					await byEmail(savepoint, 'd@exemple.fr');
					expect(await runsOfKept(savepoint)).toBe(4);
				});
			});
		} finally {
			await database.dispose();
		}
	});
});

describe.runIf(!serverUrl)('PGlite queries through the one typed db', () => {
	const rowsOf = <Row>(result: unknown) =>
		(Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
	const byEmail = (db: DbOrTx, email: string) =>
		db
			.select({ id: schema.users.id, isAdmin: schema.users.isAdmin, createdAt: schema.users.createdAt })
			.from(schema.users)
			.where(sql`${schema.users.email} = ${email}`);
	// Runs of this connection's kept statement of that query (none when each run is parsed anew), and how many.
	const kept = async (db: DbOrTx) =>
		rowsOf<{ runs: number; statements: number }>(
			await db.execute(
				sql`select coalesce(sum(generic_plans + custom_plans), 0)::int as runs, count(*)::int as statements
					from pg_prepared_statements where statement like '%from "users" where "users"."email" = $1%'`
			)
		)[0]!;

	it('are parsed once and run with each run’s values, in a transaction and a savepoint too', async () => {
		const database = await createTestDatabase();
		try {
			await database.db.insert(schema.users).values([
				{ email: 'a@exemple.fr', name: 'A', passwordHash: 'x', isAdmin: true },
				{ email: 'b@exemple.fr', name: 'B', passwordHash: 'x' }
			]);
			const [a] = await byEmail(database.db, 'a@exemple.fr');
			const [b] = await byEmail(database.db, 'b@exemple.fr');
			expect(a).toMatchObject({ isAdmin: true, createdAt: expect.any(Date) });
			expect(b).toMatchObject({ isAdmin: false });
			expect(a!.id).not.toBe(b!.id);
			expect(await byEmail(database.db, 'nobody@exemple.fr')).toEqual([]);
			expect(await kept(database.db)).toEqual({ runs: 3, statements: 1 });
			await database.db
				.transaction(async (tx) => {
					await tx.insert(schema.users).values({ email: 'c@exemple.fr', name: 'C', passwordHash: 'x' });
					expect(await byEmail(tx, 'c@exemple.fr')).toHaveLength(1);
					await tx.transaction(async (savepoint) => {
						expect(await byEmail(savepoint, 'a@exemple.fr')).toEqual([a]);
					});
					expect(await kept(tx)).toEqual({ runs: 5, statements: 1 });
					tx.rollback();
				})
				.catch(() => {});
			expect(await byEmail(database.db, 'c@exemple.fr')).toEqual([]);
		} finally {
			await database.dispose();
		}
	});

	it('answer what PGlite’s own query() answers, whatever the types, the row mode and the parsers', async () => {
		const client = new PGlite();
		const kept = preparingStatementsOnPglite(client);
		try {
			await client.exec('create table t (id int primary key, at timestamptz, tags text[], data jsonb)');
			const text = `select $1::int as n, $2::bigint as big, $3::numeric as price, $4::text as name, $5::bool as yes,
				$6::json as doc, $7::jsonb as docb, $8::timestamptz as at, $9::date as day, $10::bytea as raw,
				$11::uuid as id, $12::int[] as ints, $13::text[] as texts, $14::text as nothing, 'same' as n`;
			const values = [
				7,
				'9007199254740993',
				'12.50',
				'maçonnerie ’ 🧱',
				true,
				{ a: [1, 'b'] },
				JSON.stringify({ c: null }),
				new Date('2026-11-26T01:02:03.004Z'),
				'2026-11-26',
				new Uint8Array([0, 1, 255]),
				'8f7e5b3c-1d2a-4c6b-9e8f-0a1b2c3d4e5f',
				[1, 2, 3],
				['a', 'b "c"'],
				null
			];
			const drizzles = { parsers: { 1184: (value: string) => value, 1082: (value: string) => value } };
			for (const options of [
				undefined,
				{ rowMode: 'array' as const },
				drizzles,
				{ ...drizzles, rowMode: 'array' as const }
			]) {
				const theirs = await client.query(text, values, options);
				const ours = await kept.query(text, values, options);
				expect(ours).toEqual(theirs);
			}
			const insert =
				'insert into t (id, at, tags, data) values ($1, $2, $3, $4), ($5, null, null, null) returning *';
			const row = [1, new Date(0), ['x'], { k: 1 }, 2];
			const ours = await kept.query(insert, row);
			await client.exec('delete from t');
			expect(ours).toEqual(await client.query(insert, row));
			expect(ours).toMatchObject({ command: 'INSERT', affectedRows: 2, rowCount: 2 });
		} finally {
			await client.close();
		}
	});

	it('wait for an open transaction to end, as PGlite’s own queries do', async () => {
		const database = await createTestDatabase();
		try {
			const order: string[] = [];
			let commit!: () => void;
			const committing = new Promise<void>((resolve) => (commit = resolve));
			const transaction = database.db.transaction(async (tx) => {
				await tx.insert(schema.users).values({ email: 'd@exemple.fr', name: 'D', passwordHash: 'x' });
				await committing;
			});
			// Run between the transaction's statements, it would see the row before its commit (or end up in it).
			const outside = byEmail(database.db, 'd@exemple.fr').then((rows) => (order.push('outside'), rows));
			await new Promise((resolve) => setTimeout(resolve, 50));
			order.push('commit');
			commit();
			await transaction;
			expect(await outside).toHaveLength(1);
			expect(order).toEqual(['commit', 'outside']);
		} finally {
			await database.dispose();
		}
	});

	it('fail as PostgreSQL says and leave the connection usable; a statement gone or changed is prepared again', async () => {
		const database = await createTestDatabase();
		try {
			const user = { email: 'e@exemple.fr', name: 'E', passwordHash: 'x' };
			await database.db.insert(schema.users).values(user);
			const again = database.db.insert(schema.users).values(user);
			await expect(again).rejects.toMatchObject({ cause: { code: '23505' } });
			expect(await byEmail(database.db, user.email)).toHaveLength(1);
			// A value the parameter's type refuses, and a statement that does not parse: PostgreSQL's error each, the
			// connection usable after both.
			const asNumber = database.db.execute(sql`select ${'pas un nombre'}::int as n`);
			await expect(asNumber).rejects.toMatchObject({ cause: { code: '22P02' } });
			const unparsable = database.db.execute(sql`select from where ${1}`);
			await expect(unparsable).rejects.toMatchObject({ cause: { code: '42601' } });
			expect(await byEmail(database.db, user.email)).toHaveLength(1);
			// A statement the connection dropped (DEALLOCATE, as a pooler's reset does).
			await database.db.execute(sql`deallocate all`);
			expect(await byEmail(database.db, user.email)).toHaveLength(1);
			expect((await kept(database.db)).statements).toBe(1);
			// A statement whose rows changed shape: PostgreSQL refuses to run it as kept.
			await database.db
				.insert(schema.siteImages)
				.values({ key: 'hero', url: 'https://images.unsplash.com/x' });
			const image = () => database.db.execute(sql`select * from site_images where key = ${'hero'}`);
			expect(rowsOf<Record<string, unknown>>(await image())[0]).not.toHaveProperty('caption_extra');
			await database.db.execute(sql`alter table site_images add column caption_extra text default 'x'`);
			expect(rowsOf<Record<string, unknown>>(await image())[0]).toHaveProperty('caption_extra', 'x');
		} finally {
			await database.dispose();
		}
	});

	it('fail as PGlite’s own queries do once the database is closed (what an outage answer looks for)', async () => {
		const database = await createTestDatabase();
		expect(await byEmail(database.db, 'f@exemple.fr')).toEqual([]);
		await database.dispose();
		const closed = byEmail(database.db, 'f@exemple.fr');
		await expect(closed).rejects.toSatisfy((failure) => isDatabaseUnavailable(failure));
	});

	it('keep at most 200 statements, the least recently run closed first', async () => {
		const database = await createTestDatabase();
		try {
			for (let i = 0; i < 230; i++) {
				const [row] = rowsOf<{ n: number }>(
					await database.db.execute(sql`select ${i}::int + ${sql.raw(String(i))} as n`)
				);
				expect(row!.n).toBe(2 * i);
			}
			const [count] = rowsOf<{ statements: number }>(
				await database.db.execute(sql`select count(*)::int as statements from pg_prepared_statements`)
			);
			expect(count!.statements).toBeLessThanOrEqual(200);
			expect(count!.statements).toBeGreaterThan(150);
		} finally {
			await database.dispose();
		}
	});
});

describe('PGlite on disk', () => {
	it('keeps its data in the given directory across restarts', async () => {
		const dir = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-pglite-')), 'db');
		const first = openDatabase({ url: null, pgliteDir: dir });
		await first.migrate();
		await first.db.insert(schema.siteImages).values({ key: 'hero', url: 'https://images.unsplash.com/x' });
		await first.close();
		const second = openDatabase({ url: null, pgliteDir: dir });
		await second.migrate();
		const rows = await second.db.select().from(schema.siteImages);
		expect(rows.map((r) => r.key)).toEqual(['hero']);
		await second.close();
	});
});

describe.runIf(serverUrl)('PostgreSQL migrations from several instances at once', () => {
	it('serialises concurrent start-ups with the advisory lock', async () => {
		const { url, drop } = await createEmptyPostgresDatabase();
		const instances = Array.from({ length: 4 }, () => openDatabase({ url, max: 3 }));
		try {
			await Promise.all(instances.map((i) => i.migrate()));
			expect(await tablesOf(instances[0]!.db)).toEqual(
				expect.arrayContaining(['sessions', 'site_images', 'users'])
			);
			const applied = await instances[0]!.db.execute(
				sql`select count(*)::int as n from drizzle.__drizzle_migrations`
			);
			const rows = Array.isArray(applied) ? applied : (applied as { rows: unknown[] }).rows;
			expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
		} finally {
			await Promise.all(instances.map((i) => i.close()));
			await drop();
		}
	});
});
