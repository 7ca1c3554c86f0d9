/** Maps typed domain errors onto a superform: field errors under their fields, the rest as a form message. */
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { message, setError, type SuperValidated } from 'sveltekit-superforms';
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from '../db/unavailable';
import { AppError, OUTAGE_MESSAGE, RateLimitedError, ValidationError, retryAfterText } from '../errors';
import { log } from '../log';
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
		return message(form, { type: 'error', text: 'Corrigez les champs signalés.' }, { status: 400 }) as never;
	}
	// Whatever headers a typed error carries (Retry-After on 429 and 503) go with the form's answer too.
	if (error instanceof AppError && error.extra.headers) event.setHeaders(error.extra.headers);
	if (error instanceof RateLimitedError) {
		return message(
			form,
			{ type: 'error', text: `Trop de tentatives. ${retryAfterText(error.retryAfterSeconds)}` },
			{ status: 429 }
		) as never;
	}
	if (error instanceof AppError) {
		return message(form, { type: 'error', text: errorText(error) }, { status: error.status as 400 }) as never;
	}
	// An outage: the form comes back with what was typed, and the visitor is told to try again shortly.
	if (isDatabaseUnavailable(error)) {
		log.warn('database unavailable', { error });
		event.setHeaders({ 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) });
		return message(form, { type: 'error', text: OUTAGE_MESSAGE }, { status: 503 as 400 }) as never;
	}
	throw error;
}

/** The French text of a typed error: its field messages when it has some, else its message. */
export function errorText(error: AppError): string {
	return error.extra.errors ? Object.values(error.extra.errors).flat().join(' ') : error.message;
}

/**
 * For plain form actions (no superform): runs the task and returns its result with `context`, or turns a typed
 * error into `fail(status, { ...context, error })` that the page shows next to the right item.
 */
export async function actionResult<C extends Record<string, string>, R extends Record<string, unknown>>(
	context: C,
	task: () => Promise<R>
) {
	try {
		return { ...context, ...(await task()) };
	} catch (error) {
		if (error instanceof AppError) return fail(error.status, { ...context, error: errorText(error) });
		throw error;
	}
}

/**
 * Parses a plain form post (no superform: the one-field admin actions) with its schema; a bad field is a typed
 * ValidationError, which `actionResult` shows next to the item. No hand parsing with `String(form.get(…))`.
 */
export function parseFields<S extends z.ZodType>(fields: Record<string, unknown>, schema: S): z.output<S> {
	const parsed = schema.safeParse(fields);
	if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
	return parsed.data;
}

export const formFields = async (request: Request) => Object.fromEntries(await request.formData());
