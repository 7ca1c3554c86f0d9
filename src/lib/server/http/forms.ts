/** Maps typed domain errors onto a superform: field errors under their fields, the rest as a form message. */
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { message, setError, type SuperValidated } from 'sveltekit-superforms';
import { databaseLost } from '../db/outage';
import { isDatabaseUnavailable, isDiskFull, OUTAGE_RETRY_AFTER_SECONDS } from '../db/unavailable';
import { FIX_FIELDS, outageMessage, tooManyAttempts } from '$lib/messages';
import { AppError, RateLimitedError, ValidationError } from '../errors';
import { fieldErrors } from './api';
import type { z } from 'zod';

type AnyForm = SuperValidated<Record<string, unknown>, App.Superforms.Message>;

export function formFailure<F extends AnyForm>(
	event: Pick<RequestEvent, 'setHeaders'>,
	form: F,
	error: unknown
): ActionFailure<{ form: F }> {
	if (error instanceof ValidationError) {
		for (const [field, messages] of Object.entries(error.fieldErrors)) {
			setError(form, field === '_' ? '' : (field as never), messages);
		}
		return message(form, { type: 'error', text: FIX_FIELDS }, { status: 400 }) as never;
	}
	// Whatever headers a typed error carries (Retry-After on 429 and 503) go with the form's answer too.
	if (error instanceof AppError && error.extra.headers) event.setHeaders(error.extra.headers);
	if (error instanceof RateLimitedError) {
		return message(
			form,
			{ type: 'error', text: tooManyAttempts(error.retryAfterSeconds) },
			{ status: 429 }
		) as never;
	}
	if (error instanceof AppError) {
		return message(form, { type: 'error', text: errorText(error) }, { status: error.status as 400 }) as never;
	}
	// An outage: the form comes back with what was typed, and the visitor is told to try again shortly.
	if (isDatabaseUnavailable(error)) {
		databaseLost(error);
		event.setHeaders({ 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) });
		const text = outageMessage(isDiskFull(error));
		return message(form, { type: 'error', text }, { status: 503 as 400 }) as never;
	}
	throw error;
}

/** The French text of a typed error: its field messages when it has some, else its message. */
export function errorText(error: AppError): string {
	return error.extra.errors ? Object.values(error.extra.errors).flat().join(' ') : error.message;
}

/** The posted fields of a plain form, as strings (a body that is not a form reads as no fields). */
export async function formFields(request: Request): Promise<Record<string, unknown>> {
	try {
		return Object.fromEntries(await request.formData());
	} catch {
		return {};
	}
}

/** The posted form as it came (repeated fields and all); a body that is not a form reads as an empty one. */
export async function formBody(request: Request): Promise<FormData> {
	try {
		return await request.formData();
	} catch {
		return new FormData();
	}
}

/**
 * A plain form action (no superform: the one-field admin forms). Parses `fields` with `schema` (no hand parsing
 * with `String(form.get(…))`), runs the task with the parsed input, and returns its result with the fields named
 * in `echo`, so that the page shows the answer next to the item it concerns. Invalid fields and typed errors
 * become `fail(status, { ...echo, error })` in French.
 */
export async function schemaAction<
	S extends z.ZodObject,
	K extends keyof z.output<S> & string,
	R extends Record<string, unknown>
>(fields: Record<string, unknown>, schema: S, echo: readonly K[], task: (input: z.output<S>) => Promise<R>) {
	const parsed = schema.safeParse(fields);
	if (!parsed.success) {
		const errors = fieldErrors(parsed.error);
		// The fields that were valid still say which item the error is about.
		const context: Partial<Record<K, string>> = {};
		for (const key of echo) if (!errors[key] && typeof fields[key] === 'string') context[key] = fields[key];
		return fail(400, { ...context, error: Object.values(errors).flat().join(' ') });
	}
	const context = Object.fromEntries(echo.map((key) => [key, parsed.data[key]])) as Pick<z.output<S>, K>;
	try {
		return { ...context, ...(await task(parsed.data)) };
	} catch (error) {
		if (error instanceof AppError) return fail(error.status, { ...context, error: errorText(error) });
		throw error;
	}
}
