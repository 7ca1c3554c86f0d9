/**
 * The upkeep PostgreSQL's autovacuum does on a server, done by hand for the embedded database. PGlite runs
 * PostgreSQL in single-user mode, where no autovacuum worker ever starts: without this, a site's tables would never
 * be analysed (every query planned on default guesses — the inbox's far pages and the dashboard took 1.5 to 2 times
 * as long on a site after years of use, `npm run bench scale`) nor vacuumed (rows deleted by retention would stay
 * in the files for ever, and index-only scans would visit the table for every row).
 */
import { sql } from 'drizzle-orm';
import type { Database } from './index';
import { rowsOf } from './migrate';

/**
 * VACUUM (ANALYZE) of each of our tables on the embedded database, one table at a time: the engine answers one
 * query at a time, so a page waits for one table's turn (at most about a second at the reference size), never for
 * the whole. On PostgreSQL, nothing: its autovacuum does it. Returns how many tables were tidied.
 */
export async function tidyEmbedded(database: Pick<Database, 'driver' | 'db'>): Promise<number> {
	if (database.driver !== 'pglite') return 0;
	const tables = rowsOf<{ name: string }>(
		await database.db.execute(
			sql`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`
		)
	);
	for (const { name } of tables) {
		// A name from the catalogue, quoted as an identifier: never a request's.
		await database.db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
	}
	return tables.length;
}
