/**
 * Typed errors of the domain. Each carries the HTTP status it maps to; the API wrapper
 * (http/api.ts) turns them into problem details once, and form actions into French form messages.
 */
export class AppError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly extra: { errors?: Record<string, string[]>; headers?: Record<string, string> } = {}
	) {
		super(message);
		this.name = new.target.name;
	}
}

/** 400, with the messages of each invalid field. */
export class ValidationError extends AppError {
	constructor(
		readonly fieldErrors: Record<string, string[]>,
		message = 'Certains champs sont invalides.'
	) {
		super(400, message, { errors: fieldErrors });
	}
}

export class UnauthorizedError extends AppError {
	constructor(message = 'Vous devez être connecté.') {
		super(401, message);
	}
}

export class ForbiddenError extends AppError {
	constructor(message = 'Cette action est réservée aux administrateurs.') {
		super(403, message);
	}
}

export class NotFoundError extends AppError {
	constructor(message = 'Ressource introuvable.') {
		super(404, message);
	}
}

export class ConflictError extends AppError {
	constructor(message: string) {
		super(409, message);
	}
}

export class PayloadTooLargeError extends AppError {
	constructor(message = 'Le contenu envoyé est trop volumineux.') {
		super(413, message);
	}
}

export class UnsupportedMediaTypeError extends AppError {
	constructor(message: string) {
		super(415, message);
	}
}

export class RateLimitedError extends AppError {
	constructor(
		readonly retryAfterSeconds: number,
		message = 'Trop de tentatives. Réessayez plus tard.'
	) {
		super(429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
	}
}

export class ServiceUnavailableError extends AppError {
	constructor(message: string, retryAfterSeconds?: number) {
		super(503, message, retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {});
	}
}

/** What a visitor reads, from the API and on a form, while the database is out of reach. */
export const SERVICE_UNAVAILABLE_MESSAGE =
	'Service momentanément indisponible. Réessayez dans quelques instants.';
/** Long enough for a database restart, short enough that a visitor's retry is not put off for long. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30;

/**
 * Codes of what the drivers throw when the database cannot be reached: Node's socket errors (postgres.js passes
 * them on), postgres.js's own connection codes, and the SQLSTATEs of a server that is shutting down, refusing
 * connections or lost its database. PGlite, once closed, throws plain errors recognised by their message.
 */
const OUTAGE_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EPIPE',
	'CONNECTION_CLOSED',
	'CONNECTION_ENDED',
	'CONNECTION_DESTROYED',
	'CONNECT_TIMEOUT',
	'57P01', // admin_shutdown
	'57P02', // crash_shutdown
	'57P03', // cannot_connect_now
	'53300', // too_many_connections
	'3D000' // invalid_catalog_name: the database is gone
]);
const PGLITE_CLOSED = /^PGlite is clos(ed|ing)$/;

/** True when `error` (or what it wraps: Drizzle puts the driver's error in `cause`) says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
	if (!error || typeof error !== 'object' || depth > 5) return false;
	const { code, message, cause, errors } = error as {
		code?: unknown;
		message?: unknown;
		cause?: unknown;
		errors?: unknown;
	};
	if (typeof code === 'string' && (OUTAGE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
	if (typeof message === 'string' && PGLITE_CLOSED.test(message)) return true;
	// Node reports a failed connection to every address of a host as an AggregateError.
	if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
	return isDatabaseUnavailable(cause, depth + 1);
}

/** The typed error for a database outage, or the error itself when it is something else. */
export function outageAsTyped(error: unknown): unknown {
	return isDatabaseUnavailable(error)
		? new ServiceUnavailableError(SERVICE_UNAVAILABLE_MESSAGE, OUTAGE_RETRY_AFTER_SECONDS)
		: error;
}

/** "Réessayez dans 12 minutes." — for form messages. */
export function retryAfterText(seconds: number): string {
	if (seconds < 90) return `Réessayez dans ${Math.max(1, seconds)} secondes.`;
	const minutes = Math.ceil(seconds / 60);
	return `Réessayez dans ${minutes} minutes.`;
}
