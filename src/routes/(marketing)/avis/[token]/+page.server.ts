import { error, fail } from '@sveltejs/kit';
import { satisfactionSchema } from '$lib/schemas/training';
import { AppError } from '$lib/server/errors';
import { errorText, formBody } from '$lib/server/http/forms';
import * as training from '$lib/server/training';
import type { Actions, PageServerLoad } from './$types';

/**
 * The cold survey (issue « Formation, part 1 », point 4), from its e-mail's link: no account needed, once, for 30
 * days; a used or expired link says so (410). The page posts to itself; the same address takes JSON (+server.ts).
 */
export const load: PageServerLoad = async (event) => {
	event.setHeaders({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
	try {
		const survey = await training.coldSurvey(event.params.token);
		return { firstName: survey.firstName, questions: await training.questionsOfSurvey() };
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};

export const actions: Actions = {
	default: async (event) => {
		const form = await formBody(event.request);
		const parsed = satisfactionSchema.safeParse({
			ratings: [0, 1, 2, 3, 4].map((i) => Number(form.get(`r${i}`) ?? NaN)),
			comment: String(form.get('comment') ?? '')
		});
		if (!parsed.success)
			return fail(400, { error: 'Donnez une note de 1 à 5 à chacune des cinq questions.' });
		try {
			await training.answerCold(event.params.token, parsed.data, event.getClientAddress());
		} catch (failure) {
			if (failure instanceof AppError) {
				if (failure.extra.headers) event.setHeaders(failure.extra.headers);
				return fail(failure.status, { error: errorText(failure) });
			}
			throw failure;
		}
		return { done: true };
	}
};
