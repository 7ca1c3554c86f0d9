/**
 * A fresh, migrated database per test file: an in-memory PGlite by default, or — when DATABASE_URL is set — a
 * new database created on that PostgreSQL server and dropped afterwards. Nothing is shared between files.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../src/lib/server/db';

export const serverUrl = process.env.DATABASE_URL || null;
export const driverName = serverUrl ? 'postgres' : 'pglite';

export interface TestDatabase extends Database {
	/** The URL of this test's own database (postgres only). */
	url: string | null;
	dispose(): Promise<void>;
}

/** Creates an empty database on the server and returns its URL, plus a function that drops it. */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
	if (!serverUrl) throw new Error('DATABASE_URL is not set');
	const name = `atelier_test_${randomBytes(6).toString('hex')}`;
	const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
	await admin.unsafe(`create database ${name}`);
	await admin.end();
	const url = new URL(serverUrl);
	url.pathname = `/${name}`;
	return {
		url: url.href,
		drop: async () => {
			const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
			await again.unsafe(`drop database if exists ${name} with (force)`);
			await again.end();
		}
	};
}

export async function createTestDatabase({ migrate = true } = {}): Promise<TestDatabase> {
	if (serverUrl) {
		const { url, drop } = await createEmptyPostgresDatabase();
		const database = openDatabase({ url, max: 5 });
		if (migrate) await database.migrate();
		return {
			...database,
			url,
			dispose: async () => {
				await database.close();
				await drop();
			}
		};
	}
	const database = openDatabase({ url: null });
	if (migrate) await database.migrate();
	return { ...database, url: null, dispose: () => database.close() };
}
