/**
 * A question's thread as its two pages show it — the member's (`/questions/{id}`) and the trainer's
 * (`/admin/questions/{id}`) — and their one reply action: the same view and the same form, each route guarding
 * who reads first.
 */
import { error, fail } from '@sveltejs/kit';
import { questionMessageSchema } from '$lib/schemas/training';
import { AppError } from '../errors';
import * as training from '../training';
import { fieldErrors } from './api';
import { errorText } from './forms';
import { readMessageForm } from './message-form';

type Reader = Parameters<typeof training.reply>[1];

/** The thread for a reader it belongs to (its member, an admin); an error page for anyone else (404). */
export async function threadPage(id: string, reader: Reader) {
	try {
		const thread = await training.thread(id, reader);
		return {
			id: thread.id,
			memberId: thread.memberId,
			module: thread.module,
			dueAt: thread.dueAt?.toISOString() ?? null,
			late: !!thread.dueAt && thread.dueAt < new Date(),
			messages: thread.messages.map((m) => ({
				id: m.id,
				from: m.from,
				html: m.html,
				at: m.at.toISOString(),
				attachment: m.attachment
			}))
		};
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
}

/** `?/reply`: a message with its optional attachment; the form comes back with its French message when refused. */
export async function replyAction(
	event: { request: Request; setHeaders: (headers: Record<string, string>) => void },
	id: string,
	reader: Reader
) {
	try {
		const { fields, attachment } = await readMessageForm(event.request, training.ATTACHMENT_MAX_BYTES);
		const parsed = questionMessageSchema.safeParse(fields);
		if (!parsed.success)
			return fail(400, {
				error: Object.values(fieldErrors(parsed.error)).flat().join(' '),
				text: String(fields.text ?? '')
			});
		await training.reply(id, reader, parsed.data.text, attachment);
		return { sent: true };
	} catch (failure) {
		if (failure instanceof AppError) {
			if (failure.extra.headers) event.setHeaders(failure.extra.headers);
			return fail(failure.status, { error: errorText(failure), text: '' });
		}
		throw failure;
	}
}
