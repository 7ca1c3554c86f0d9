/** Maps typed domain errors onto a superform: field errors under their fields, the rest as a form message. */
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { message, setError, type SuperValidated } from 'sveltekit-superforms';
import {
	AppError,
	RateLimitedError,
	ValidationError,
	isDatabaseUnavailable,
	outageAsTyped,
	retryAfterText
} from '../errors';

type AnyForm = SuperValidated<Record<string, unknown>, App.Superforms.Message>;

export function formFailure<F extends AnyForm>(
	event: Pick<RequestEvent, 'setHeaders'>,
	form: F,
	thrown: unknown
): ActionFailure<{ form: F }> {
	// A database outage comes back as a 503 form message; the form keeps what the visitor typed.
	const error = outageAsTyped(thrown);
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
	} catch (thrown) {
		const error = outageAsTyped(thrown);
		if (error instanceof AppError) return fail(error.status, { ...context, error: errorText(error) });
		throw error;
	}
}

/**
 * For the load of a page whose form must still render during a database outage (the form action's 503 comes
 * back on this page, with what the visitor typed): `fallback` while the database is out of reach.
 */
export async function unlessOutage<T>(task: () => Promise<T>, fallback: T): Promise<T> {
	try {
		return await task();
	} catch (error) {
		if (isDatabaseUnavailable(error)) return fallback;
		throw error;
	}
}
