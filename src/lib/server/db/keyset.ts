/**
 * Walks by keys (an export read a batch at a time, a list's far pages): where the last row stood, carried to the
 * next statement. A time is carried as PostgreSQL keeps it, to the microsecond — a JavaScript Date keeps
 * milliseconds, and a cursor made from one would skip the rows of the same millisecond.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';

/** A timestamptz as a cursor carries it: UTC, ISO 8601, six decimals (`2026-03-01T08:00:00.000123Z`). */
export const cursorTime = (column: SQLWrapper) =>
	sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
