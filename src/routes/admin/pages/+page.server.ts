import { fail, redirect } from '@sveltejs/kit';
import * as content from '$lib/server/content';
import { requireAdmin } from '$lib/server/http/guards';
import { AppError } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';

/** « Pages et articles »: every entry, what has a draft, and a form to start an article. */
export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const entries = await content.entries();
	return {
		entries: entries.map((entry) => ({
			...entry,
			draftSavedAt: entry.draftSavedAt?.toISOString() ?? null,
			updatedAt: entry.updatedAt.toISOString()
		}))
	};
};

export const actions: Actions = {
	/** A new article: a draft named by its address, opened in the editor at once. */
	article: async (event) => {
		const admin = await requireAdmin(event);
		const data = await event.request.formData();
		const title = String(data.get('title') ?? '').trim();
		const slug = String(data.get('slug') ?? '').trim();
		let id: string;
		try {
			({ id } = await content.createArticle({ slug, title, description: '', body: '' }, admin));
		} catch (error) {
			if (error instanceof AppError && error.status < 500) {
				const messages = Object.values(error.extra.errors ?? {}).flat();
				return fail(error.status === 409 ? 409 : 400, {
					title,
					slug,
					message: messages[0] ?? error.message
				});
			}
			throw error;
		}
		redirect(303, `/admin/pages/${id}`);
	}
};
