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
	// PostgreSQL: connection exceptions, shutdown, too many connections, database gone
	'08000',
	'08001',
	'08003',
	'08004',
	'08006',
	'57P01',
	'57P02',
	'57P03',
	'53300',
	'3D000'
]);

export function isDatabaseUnavailable(error: unknown): boolean {
	for (let current = error, depth = 0; current && depth < 6; depth++) {
		const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
		if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
		if (typeof message === 'string' && /PGlite is closed/.test(message)) return true;
		current = cause;
	}
	return false;
}

/** How long a client should wait before trying again after an outage answer. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30;
