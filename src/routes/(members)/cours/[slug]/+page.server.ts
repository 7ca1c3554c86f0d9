import { error, fail } from '@sveltejs/kit';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import { renderedOnServer } from '$lib/server/http/server-rendered';
import * as memberships from '$lib/server/memberships';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	// Without access, the page says why and how to (re)join, and shows nothing of the module.
	if (!access.allowed) return { locked: access.reason, page: null };
	try {
		const page = await courses.page(event.params.slug, user);
		return {
			locked: null,
			grace: access.reason === 'grace' ? access.until.toISOString() : null,
			page: {
				completed: page.completed,
				media: page.media,
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
						slug: page.module.slug,
						title: page.module.title,
						summary: page.module.summary,
						durationMinutes: page.module.durationMinutes,
						published: page.module.published
					},
					'html',
					page.html,
					event
				)
			}
		};
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};

async function mark(user: { id: string; isAdmin: boolean }, slug: string, done: boolean) {
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) return fail(403, { error: 'Votre accès aux cours n’est pas ouvert.' });
	try {
		await (done ? courses.complete(user.id, slug) : courses.undo(user.id, slug));
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
	}
};
