/**
 * A fresh, migrated database per test file: an in-memory PGlite by default, or — when DATABASE_URL is set — a
 * new database created on that PostgreSQL server and dropped afterwards. Nothing is shared between files.
 * Migrated once per run (tests/integration/database-template.ts, the integration project's global setup): each
 * database is a copy of that template — PostgreSQL's `CREATE DATABASE … TEMPLATE`, PGlite's files loaded — not
 * initdb and every migration again (4.4 s of CPU for a PGlite, 0.5 s from the image).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../src/lib/server/db';

export const serverUrl = process.env.DATABASE_URL || null;
export const driverName = serverUrl ? 'postgres' : 'pglite';

export interface TestDatabase extends Database {
	/** The URL of this test's own database (postgres only). */
	url: string | null;
	dispose(): Promise<void>;
}

/**
 * Where the migrated template is, set by the global setup: a database's name on PostgreSQL, a file holding PGlite's
 * image otherwise. Unset (a test file run by another runner), each database is migrated on its own.
 */
export const TEMPLATE_VARIABLE = 'ATELIER_TEST_DATABASE_TEMPLATE';

/**
 * Creates a database on the server — empty, or a copy of `template` — and returns its URL and name, plus a function
 * that drops it.
 */
export async function createEmptyPostgresDatabase({ template = null as string | null } = {}): Promise<{
	url: string;
	name: string;
	drop: () => Promise<void>;
}> {
	if (!serverUrl) throw new Error('DATABASE_URL is not set');
	const name = `atelier_test_${randomBytes(6).toString('hex')}`;
	const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
	try {
		// Names made here and by the global setup (letters, digits, _), never a test's input.
		await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`);
	} finally {
		await admin.end();
	}
	const url = new URL(serverUrl);
	url.pathname = `/${name}`;
	return {
		url: url.href,
		name,
		drop: async () => {
			const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
			await again.unsafe(`drop database if exists ${name} with (force)`);
			await again.end();
		}
	};
}

export async function createTestDatabase({ migrate = true } = {}): Promise<TestDatabase> {
	if (serverUrl) {
		const template = (migrate && process.env[TEMPLATE_VARIABLE]) || null;
		const { url, drop } = await createEmptyPostgresDatabase({ template });
		const database = openDatabase({ url, max: 5 });
		if (migrate && !template) await database.migrate();
		return {
			...database,
			url,
			dispose: async () => {
				await database.close();
				await drop();
			}
		};
	}
	const database = await openEmbeddedTestDatabase({ migrate });
	return { ...database, url: null, dispose: () => database.close() };
}

/**
 * An in-memory PGlite: migrated (a copy of the run's template when there is one), or empty for a test that migrates
 * it or restores into it.
 */
export async function openEmbeddedTestDatabase({ migrate = true } = {}): Promise<Database> {
	// With DATABASE_URL set, the run's template is a database on that server, not a PGlite image.
	const template = (migrate && !serverUrl && process.env[TEMPLATE_VARIABLE]) || null;
	const image = template ? new Blob([readFileSync(template)]) : undefined;
	const database = openDatabase({ url: null, image });
	if (migrate && !image) await database.migrate();
	return database;
}
