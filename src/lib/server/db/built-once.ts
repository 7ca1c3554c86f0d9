/**
 * A query whose SQL is built once per database handle instead of at every run. Drizzle turns a query builder into
 * SQL text each time it runs one — walking the columns, the joins and the conditions, asking `is()` of every piece:
 * on a signed-in page that was a sixth of the server's CPU (`npm run bench members`, --cpu-prof), more than the
 * rendering. `.prepare(name)` builds it once; each run only fills the `sql.placeholder`s. For the hot queries: the
 * session of every signed-in request, the modules of every course page.
 *
 * Kept per handle: the application's database, a test's own, or an open transaction (built once per transaction,
 * dropped with it). On PostgreSQL the statement is also prepared by the server, as every query is (prepared.ts).
 * A placeholder's value reaches the driver as given, not through the column's encoder: use them for text and uuid
 * values, and pass dates as ISO strings.
 */
import type { DbOrTx } from './index';

export function builtOnce<Query>(build: (db: DbOrTx) => Query): (db: DbOrTx) => Query {
	const built = new WeakMap<DbOrTx, Query>();
	return (db) => {
		let query = built.get(db);
		if (query === undefined) built.set(db, (query = build(db)));
		return query;
	};
}
