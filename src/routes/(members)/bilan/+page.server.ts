import { fail } from '@sveltejs/kit';
import { satisfactionSchema } from '$lib/schemas/training';
import { requireUser } from '$lib/server/http/guards';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { errorText, formBody } from '$lib/server/http/forms';
import * as memberships from '$lib/server/memberships';
import * as training from '$lib/server/training';
import type { SessionUser } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

/**
 * The course's end (issue « Experience, part 2 », point 3): what was done, what is left, what comes next; once
 * every module is done, the satisfaction survey (issue « Formation, part 1 », point 4) before the attestation —
 * « Plus tard » skips it — and the certificat de réalisation from the first completed module (point 5).
 */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [{ access }, progress, attestation, hotDone, questions] = await Promise.all([
		memberships.accessOf(user),
		courses.progressOf(user.id),
		courses.attestationState(user.id),
		training.hotDone(user.id),
		training.questionsOfSurvey()
	]);
	const done = progress.modules.filter((m) => m.completed);
	const finished = progress.total > 0 && progress.completed === progress.total;
	return {
		allowed: access.allowed,
		attestation: {
			available: attestation.available,
			preparing: attestation.preparing,
			code: attestation.issued?.code ?? null,
			revoked: attestation.issued?.revokedAt ? (attestation.issued.revokedReason ?? '') : null
		},
		/** The survey is asked once, at the end, before the attestation is offered. */
		survey: finished && !hotDone && !attestation.issued ? { questions } : null,
		certificate: done.length > 0,
		finished,
		done: done.map((m) => ({ slug: m.slug, title: m.title, durationMinutes: m.durationMinutes })),
		minutes: done.reduce((sum, m) => sum + m.durationMinutes, 0),
		left: progress.total - progress.completed,
		next: progress.next ? { slug: progress.next.slug, title: progress.next.title } : null
	};
};

async function survey(event: Parameters<Actions[string]>[0], user: SessionUser, skip: boolean) {
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) return fail(403, { surveyError: 'Votre accès aux cours n’est pas ouvert.' });
	const form = await formBody(event.request);
	const parsed = satisfactionSchema.safeParse(
		skip
			? { skip: true }
			: {
					ratings: [0, 1, 2, 3, 4].map((i) => Number(form.get(`r${i}`) ?? NaN)),
					comment: String(form.get('comment') ?? '')
				}
	);
	if (!parsed.success)
		return fail(400, { surveyError: 'Donnez une note de 1 à 5 à chacune des cinq questions.' });
	try {
		await training.answerHot(user.id, parsed.data);
	} catch (failure) {
		if (failure instanceof AppError) return fail(failure.status, { surveyError: errorText(failure) });
		throw failure;
	}
	return { surveyDone: skip ? 'later' : 'thanks' };
}

export const actions: Actions = {
	satisfaction: async (event) => {
		const user = requireUser(event);
		return survey(event, user, false);
	},
	/** « Plus tard »: recorded as skipped; the attestation is offered at once. */
	later: async (event) => {
		const user = requireUser(event);
		return survey(event, user, true);
	}
};
