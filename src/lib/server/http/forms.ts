/** Maps typed domain errors onto a superform: field errors under their fields, the rest as a form message. */
import type { ActionFailure, RequestEvent } from '@sveltejs/kit';
import { message, setError, type SuperValidated } from 'sveltekit-superforms';
import { AppError, RateLimitedError, ValidationError, retryAfterText } from '../errors';

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
	if (error instanceof RateLimitedError) {
		event.setHeaders({ 'retry-after': String(error.retryAfterSeconds) });
		return message(
			form,
			{ type: 'error', text: `Trop de tentatives. ${retryAfterText(error.retryAfterSeconds)}` },
			{ status: 429 }
		) as never;
	}
	if (error instanceof AppError) {
		return message(form, { type: 'error', text: error.message }, { status: error.status as 400 }) as never;
	}
	throw error;
}
