/**
 * Typed errors of the domain. Each carries the HTTP status it maps to; the API wrapper
 * (http/api.ts) turns them into problem details once, and form actions into French form messages.
 */
import { tooManyAttempts } from '$lib/messages';

export class AppError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly extra: {
			errors?: Record<string, string[]>;
			headers?: Record<string, string>;
			/** Extension members of the problem details (RFC 9457 §3.2): what a client needs to go on. */
			members?: Record<string, unknown>;
		} = {}
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

/**
 * 409: a write made from a version of an entry that is no longer the current one (another tab, another editor).
 * It carries what is saved now, so that the client can show both texts and nothing typed is lost.
 */
export class StaleVersionError extends AppError {
	constructor(current: { version: number; draft: unknown; live: unknown }) {
		super(409, 'Cette page a été modifiée ailleurs depuis que vous l’avez ouverte.', { members: current });
	}
}

/** 410: what a link named existed and is no more (a survey link used or expired). */
export class GoneError extends AppError {
	constructor(message: string) {
		super(410, message);
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
		message = tooManyAttempts(retryAfterSeconds)
	) {
		super(429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
	}
}

export class ServiceUnavailableError extends AppError {
	constructor(message: string, retryAfterSeconds?: number) {
		super(503, message, retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {});
	}
}
