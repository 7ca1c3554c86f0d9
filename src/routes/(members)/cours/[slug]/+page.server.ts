import { error, fail, redirect } from '@sveltejs/kit';
import * as courses from '$lib/server/courses';
import { AppError, RateLimitedError } from '$lib/server/errors';
import { errorText, formBody } from '$lib/server/http/forms';
import { requireUser } from '$lib/server/http/guards';
import { renderedOnServer } from '$lib/server/http/server-rendered';
import * as memberships from '$lib/server/memberships';
import type { Actions, PageServerLoad } from './$types';

const quizTooSoon = (seconds: number) =>
	`Une tentative toutes les ${courses.quizRetrySeconds()} secondes : relisez vos réponses, puis renvoyez-les dans ${seconds} s.`;

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	// Without access, the page says why and how to (re)join, and shows nothing of the module.
	if (!access.allowed) return { locked: access.reason, page: null };
	let page: Awaited<ReturnType<typeof courses.page>> | null = null;
	try {
		page = await courses.page(event.params.slug, user);
	} catch (failure) {
		if (failure instanceof AppError && !(failure instanceof courses.PositioningRequiredError))
			error(failure.status, failure.message);
		if (!(failure instanceof AppError)) throw failure;
	}
	// The positioning at entry comes first: every module's page leads there until it is answered.
	if (!page) redirect(303, '/cours/positionnement');
	return {
		locked: null,
		answerDelayDays: (await courses.settings()).answerDelayDays,
		grace: access.reason === 'grace' ? access.until.toISOString() : null,
		page: {
			completed: page.completed,
			blockedBy: page.blockedBy,
			media: page.media,
			transcript: page.transcript,
			// The questions without their answers (the right ones are graded on the server, never sent before).
			quiz: page.quiz,
			previous: page.previous,
			next: page.next,
			// The bar's figures only: the list of modules is the dashboard's, not this page's data.
			progress: {
				completed: page.progress.completed,
				total: page.progress.total,
				percent: page.progress.percent,
				unfinished: page.progress.unfinished
			},
			// The module's HTML is in the page once, not again in the data the page hydrates from.
			module: renderedOnServer(
				{
					hasQuiz: !!page.module.quiz,
					slug: page.module.slug,
					title: page.module.title,
					summary: page.module.summary,
					durationMinutes: page.module.durationMinutes,
					published: page.module.published
				},
				'html',
				page.html ?? '',
				event
			)
		}
	};
};

async function mark(user: { id: string; isAdmin: boolean }, slug: string, done: boolean) {
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) return fail(403, { error: 'Votre accès aux cours n’est pas ouvert.' });
	try {
		await (done ? courses.complete(user, slug) : courses.undo(user.id, slug));
	} catch (failure) {
		if (failure instanceof AppError) return fail(failure.status, { error: failure.message });
		throw failure;
	}
	return { done };
}

export const actions: Actions = {
	complete: async (event) => {
		const user = requireUser(event);
		return mark(user, event.params.slug, true);
	},
	undo: async (event) => {
		const user = requireUser(event);
		return mark(user, event.params.slug, false);
	},
	/** An attempt at the module's quiz: graded on the server, each question then said right or wrong. */
	quiz: async (event) => {
		const user = requireUser(event);
		const { access } = await memberships.accessOf(user);
		if (!access.allowed) return fail(403, { quizError: 'Votre accès aux cours n’est pas ouvert.' });
		try {
			return { quiz: await courses.answerQuiz(user, event.params.slug, await formBody(event.request)) };
		} catch (failure) {
			if (failure instanceof RateLimitedError) {
				event.setHeaders({ 'retry-after': String(failure.retryAfterSeconds) });
				return fail(429, { quizError: quizTooSoon(failure.retryAfterSeconds) });
			}
			if (failure instanceof AppError) return fail(failure.status, { quizError: errorText(failure) });
			throw failure;
		}
	}
};
