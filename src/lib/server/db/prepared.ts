/**
 * Drizzle's postgres.js driver runs every query through `client.unsafe(sql, params, { prepare: false })` unless the
 * query was given a name (drizzle-orm 0.45, issue drizzle-team/drizzle-orm#6096). With parameters and no prepared
 * statement, postgres.js must first ask the server for their types (Parse, Describe, Flush), wait, and only then
 * bind and execute: two round trips to PostgreSQL for each query, each with its own write to the socket. With
 * `prepare: true`, as postgres.js itself defaults to, the first run of a statement on a connection does that once
 * and every later run is one round trip (Bind, Execute, Sync) on the statement kept by its text. postgres.js
 * prepares again by itself when a migration has changed what a kept statement reads.
 *
 * Measured on the webhook, one statement an event: 854 → 971 events a second (`npm run bench webhook`); every page
 * that asks the database saves a round trip a query.
 *
 * The client handed to a transaction's or a savepoint's callback is another function object, so it is wrapped too.
 * Queries without parameters go by the simple protocol as before (postgres.js decides that, not this option).
 * A pooler in transaction mode between the server and PostgreSQL must keep prepared statements per client
 * (PgBouncer ≥ 1.21, `max_prepared_statements`): docs/operations.md says so.
 */
import type postgres from 'postgres';

type Unsafe = postgres.Sql['unsafe'];

export function preparingStatements<T extends postgres.Sql | postgres.TransactionSql>(client: T): T {
	return new Proxy(client, {
		get(target, property, receiver) {
			if (property === 'unsafe') {
				const unsafe: Unsafe = (query, parameters, options) =>
					target.unsafe(query, parameters, { ...options, prepare: true });
				return unsafe;
			}
			if (property === 'begin' || property === 'savepoint') {
				const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown;
				return (...args: unknown[]) => {
					const scope = args.pop() as (inner: postgres.TransactionSql) => unknown;
					return open.call(target, ...args, (inner: postgres.TransactionSql) =>
						scope(preparingStatements(inner))
					);
				};
			}
			return Reflect.get(target, property, receiver);
		}
	});
}
