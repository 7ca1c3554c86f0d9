import { redirect } from '@sveltejs/kit';
import { articleStartSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
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
	/** A new article: a draft named by its address, opened in the editor at once (a refusal in French beside the form). */
	article: async (event) => {
		const admin = await requireAdmin(event);
		const result = await schemaAction(
			await formFields(event.request),
			articleStartSchema,
			['title', 'slug'],
			async ({ title, slug }) => ({
				created: await content.createArticle({ slug, title, description: '', body: '' }, admin)
			})
		);
		if ('created' in result) redirect(303, `/admin/pages/${result.created.id}`);
		return result;
	}
};
