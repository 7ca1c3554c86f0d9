/**
 * The adapter of every JSON API route: runs the handler, and maps typed errors to RFC 9457 problem details in
 * one place. Unexpected errors are logged with an id and answered as a bare 500 (never a stack).
 */
import { isHttpError, isRedirect, type RequestEvent, type RequestHandler } from '@sveltejs/kit';
import type { z } from 'zod';
import { AppError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';
import { outageMessage } from '$lib/messages';
import { databaseLost } from '../db/outage';
import { isDatabaseUnavailable, isDiskFull, OUTAGE_RETRY_AFTER_SECONDS } from '../db/unavailable';
import { log } from '../log';
import { DEFAULT_BODY_LIMIT } from './body-limits';
import { internalErrorParts, problemParts, type AnswerParts } from './problem';

export function api<E extends RequestEvent>(handler: (event: E) => Promise<Response> | Response) {
	return (async (event: E) => {
		try {
			return await handler(event);
		} catch (error) {
			if (isRedirect(error)) throw error;
			return problemFor(error, { method: event.request.method, path: event.url.pathname });
		}
		// SvelteKit types each route's handler by its own event; the wrapper keeps the route's, which it only passes on.
	}) as unknown as RequestHandler;
}

/**
 * The answer to an error a JSON API handler threw: its problem details when it is one of ours (or SvelteKit's),
 * 503 while the database is down, and otherwise a bare 500 whose reference finds the logged error.
 */
export function problemFor(error: unknown, request: { method: string; path: string }): Response {
	const parts = problemPartsFor(error, request);
	return new Response(parts.body, parts);
}

/** The same, as the parts to write (the server entry's webhook answers without a Response object). */
export function problemPartsFor(error: unknown, request: { method: string; path: string }): AnswerParts {
	if (error instanceof AppError) {
		return problemParts(error.status, error.message, {
			errors: error.extra.errors,
			headers: error.extra.headers,
			members: error.extra.members
		});
	}
	if (isHttpError(error)) return problemParts(error.status, error.body.message);
	if (isDatabaseUnavailable(error)) {
		// One line when it is lost, one when it is back (db/outage.ts): not one per request.
		databaseLost(error, request);
		return problemParts(503, outageMessage(isDiskFull(error)), {
			headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) }
		});
	}
	const id = crypto.randomUUID();
	log.error('unhandled API error', { id, ...request, error });
	return internalErrorParts(id);
}

/** Small JSON bodies: public forms and admin edits — the server entry's limit for these routes (body-limits.ts). */
export const JSON_BODY_LIMIT = DEFAULT_BODY_LIMIT;

/** Reads the request body as text, refusing it with 413 as soon as it passes `limit` bytes. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
	const declared = Number(request.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError();
	if (!request.body) return '';
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel();
			throw new PayloadTooLargeError();
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** Field path → messages, from a zod error. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	for (const issue of error.issues) {
		const key = issue.path.length ? issue.path.join('.') : '_';
		(errors[key] ??= []).push(issue.message);
	}
	return errors;
}

/**
 * How deep a JSON body may nest: what any of our bodies needs is a few levels (a page's draft: fields, a list, an
 * item, a group); a draft of 100,000 nested arrays passed the size limit and reached every recursive function that
 * reads a draft. Refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted), in one pass. */
export function jsonDepth(text: string): number {
	let depth = 0;
	let deepest = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c)
				i++; // a backslash: the next character is escaped
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) inString = true;
		else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
		else if (c === 0x5d || c === 0x7d) depth--;
	}
	return deepest;
}

/** Parses a JSON body against a schema: 415 without a JSON content type, 413 past the limit, 400 otherwise. */
export async function readJson<S extends z.ZodType>(
	event: RequestEvent,
	schema: S,
	limit = JSON_BODY_LIMIT
): Promise<z.output<S>> {
	const type = event.request.headers.get('content-type') ?? '';
	if (!/^application\/json\s*(;|$)/i.test(type)) {
		throw new UnsupportedMediaTypeError(
			'Le corps de la requête doit être du JSON (Content-Type: application/json).'
		);
	}
	const text = await readBodyText(event.request, limit);
	if (jsonDepth(text) > MAX_JSON_DEPTH)
		throw new ValidationError(
			{ _: [`Le corps de la requête est imbriqué trop profondément (${MAX_JSON_DEPTH} niveaux au plus).`] },
			'Le corps de la requête est imbriqué trop profondément.'
		);
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch {
		throw new ValidationError({ _: ['JSON invalide.'] }, 'Le corps de la requête n’est pas du JSON valide.');
	}
	const parsed = schema.safeParse(data);
	if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
	return parsed.data;
}
