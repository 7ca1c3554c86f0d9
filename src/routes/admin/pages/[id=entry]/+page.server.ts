import { error } from '@sveltejs/kit';
import { modelOf } from '$lib/content/model';
import * as content from '$lib/server/content';
import { AppError } from '$lib/server/errors';
import { requireAdmin } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';

/** The editor of one entry: its fields' model, live fields, draft, versions. Saving goes through the content API. */
export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	let entry;
	try {
		entry = await content.entry(event.params.id);
	} catch (failure) {
		if (failure instanceof AppError && failure.status === 404) error(404, 'Cette page n’existe pas.');
		throw failure;
	}
	return {
		entry: {
			...entry,
			draftSavedAt: entry.draftSavedAt?.toISOString() ?? null,
			revisions: entry.revisions.map((r) => ({ ...r, publishedAt: r.publishedAt.toISOString() }))
		},
		model: modelOf(entry.id, entry.kind)
	};
};
