import { error, fail } from '@sveltejs/kit';
import { questionMessageSchema } from '$lib/schemas/training';
import { AppError } from '$lib/server/errors';
import { fieldErrors } from '$lib/server/http/api';
import { errorText } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { readMessageForm } from '$lib/server/http/message-form';
import * as training from '$lib/server/training';
import type { Actions, PageServerLoad } from './$types';

/** A member's thread, for the trainer: read it, answer it (the member is told by e-mail). */
export const load: PageServerLoad = async (event) => {
	const admin = await requireAdmin(event);
	try {
		const thread = await training.thread(event.params.id, admin);
		return {
			thread: {
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
			}
		};
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};

export const actions: Actions = {
	reply: async (event) => {
		const admin = await requireAdmin(event);
		try {
			const { fields, attachment } = await readMessageForm(event.request, training.ATTACHMENT_MAX_BYTES);
			const parsed = questionMessageSchema.safeParse(fields);
			if (!parsed.success)
				return fail(400, {
					error: Object.values(fieldErrors(parsed.error)).flat().join(' '),
					text: String(fields.text ?? '')
				});
			await training.reply(event.params.id, admin, parsed.data.text, attachment);
			return { sent: true };
		} catch (failure) {
			if (failure instanceof AppError) {
				if (failure.extra.headers) event.setHeaders(failure.extra.headers);
				return fail(failure.status, { error: errorText(failure), text: '' });
			}
			throw failure;
		}
	}
};
