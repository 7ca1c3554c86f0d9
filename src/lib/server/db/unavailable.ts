/**
 * Whether an error means "the database cannot answer right now" (refused, reset, shut down, dropped, closed) as
 * opposed to "this query is wrong". The first is an outage: public forms answer 503 with Retry-After and keep
 * what the visitor typed; the second is a bug, answered 500 and logged.
 */
const UNAVAILABLE_CODES = new Set([
	// sockets
	'ECONNREFUSED',
	'ECONNRESET',
	'ETIMEDOUT',
	'EPIPE',
	'EHOSTUNREACH',
	'ENOTFOUND',
	'EAI_AGAIN',
	// postgres.js
	'CONNECTION_ENDED',
	'CONNECTION_CLOSED',
	'CONNECTION_DESTROYED',
	'CONNECT_TIMEOUT',
	// PostgreSQL: the database named does not exist (dropped, or not yet restored)
	'3D000',
	// PostgreSQL: « object not in prerequisite state » — a database refusing connections for maintenance — and
	// « read-only SQL transaction » — a replica, or a primary demoted by a failover
	'55000',
	'25006',
	// PostgreSQL: a lock not had within lock_timeout (a table held by maintenance: db/index.ts)
	'55P03'
]);

/**
 * PostgreSQL's classes of errors that are the server's state, not the query's (by SQLSTATE class, so that codes
 * not listed one by one count too): 08 connection exception, 53 insufficient resources (disk full, out of memory,
 * too many connections), 57 operator intervention (shutdown, crash recovery, a cancelled statement), 58 system
 * error (I/O).
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58']);
const SQLSTATE = /^[0-9A-Z]{5}$/;

const isUnavailableCode = (code: string) =>
	UNAVAILABLE_CODES.has(code) || (SQLSTATE.test(code) && UNAVAILABLE_CLASSES.has(code.slice(0, 2)));

export function isDatabaseUnavailable(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 6; depth++) {
		const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
		if (typeof code === 'string' && (isUnavailableCode(code) || code === 'ENOSPC')) return true;
		if (typeof message === 'string' && /PGlite is closed/.test(message)) return true;
		current = cause;
	}
	return false;
}

/**
 * Whether the database (or the disk it writes to) is full: PostgreSQL's 53100 (PGlite says it too, from the
 * embedded database's own writes), or ENOSPC from the file system. An outage of its own words: « espace disque
 * plein », and readiness says so (db/outage.ts).
 */
export function isDiskFull(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 6; depth++) {
		const { code, cause } = current as { code?: unknown; cause?: unknown };
		if (code === '53100' || code === 'ENOSPC') return true;
		current = cause;
	}
	return false;
}

/** How long a client should wait before trying again after an outage answer. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30;
