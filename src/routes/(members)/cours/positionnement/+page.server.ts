import { fail, redirect } from '@sveltejs/kit';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { errorText, formBody } from '$lib/server/http/forms';
import { requireUser } from '$lib/server/http/guards';
import * as memberships from '$lib/server/memberships';
import type { Actions, PageServerLoad } from './$types';

/** The positioning at entry: its questions, or what the member answered. */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) redirect(303, '/cours');
	const [page, progress] = await Promise.all([courses.positioningPage(user.id), courses.progressOf(user.id)]);
	// No positioning asked: nothing to answer here.
	if (!page.questions) redirect(303, '/cours');
	return {
		questions: page.questions,
		answers: page.answers,
		answeredAt: page.answeredAt?.toISOString() ?? null,
		first: progress.next ? { slug: progress.next.slug, title: progress.next.title } : null
	};
};

export const actions: Actions = {
	/** The form's checkboxes `q0`, `q1`… (choice indexes): recorded once, then the first module opens. */
	answer: async (event) => {
		const user = requireUser(event);
		const { access } = await memberships.accessOf(user);
		if (!access.allowed)
			return fail(403, { error: 'Votre accès aux cours n’est pas ouvert.', answers: [] as number[][] });
		const form = await formBody(event.request);
		const { questions } = await courses.positioningPage(user.id);
		const answers = (questions ?? []).map((_, i) =>
			form
				.getAll(`q${i}`)
				.map((value) => Number(value))
				.filter((n) => Number.isInteger(n) && n >= 0 && n < 8)
		);
		try {
			await courses.answerPositioning(user.id, answers);
		} catch (failure) {
			if (failure instanceof AppError) return fail(failure.status, { error: errorText(failure), answers });
			throw failure;
		}
		const { next } = await courses.progressOf(user.id);
		redirect(303, next ? `/cours/${next.slug}` : '/cours');
	}
};
