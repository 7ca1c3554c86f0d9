import { fail, redirect } from '@sveltejs/kit';
import { questionCreateSchema } from '$lib/schemas/training';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { fieldErrors } from '$lib/server/http/api';
import { errorText } from '$lib/server/http/forms';
import { requireUser } from '$lib/server/http/guards';
import { readMessageForm } from '$lib/server/http/message-form';
import * as memberships from '$lib/server/memberships';
import * as training from '$lib/server/training';
import type { Actions, PageServerLoad } from './$types';

/** The member's questions to the trainer, latest first, and the promised delay. */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [threads, settings] = await Promise.all([training.threadsOf(user.id), courses.settings()]);
	return {
		answerDelayDays: settings.answerDelayDays,
		threads: threads.map((t) => ({
			id: t.id,
			module: t.moduleTitle,
			lastMessageAt: t.lastMessageAt.toISOString(),
			awaiting: !!t.awaitingSince,
			dueAt: t.dueAt?.toISOString() ?? null,
			messages: t.messages
		}))
	};
};

export const actions: Actions = {
	/** « Poser une question au formateur », from a module's page: the new thread's page, or the module's form again. */
	ask: async (event) => {
		const user = requireUser(event);
		const { access } = await memberships.accessOf(user);
		if (!access.allowed) return fail(403, { error: 'Votre accès aux cours n’est pas ouvert.' });
		let id: string;
		try {
			const { fields, attachment } = await readMessageForm(event.request, training.ATTACHMENT_MAX_BYTES);
			const parsed = questionCreateSchema.safeParse(fields);
			if (!parsed.success)
				return fail(400, { error: Object.values(fieldErrors(parsed.error)).flat().join(' '), ...fields });
			({ id } = await training.ask(user, parsed.data.module, parsed.data.text, attachment));
		} catch (failure) {
			if (failure instanceof AppError) {
				if (failure.extra.headers) event.setHeaders(failure.extra.headers);
				return fail(failure.status, { error: errorText(failure) });
			}
			throw failure;
		}
		redirect(303, `/questions/${id}`);
	}
};
