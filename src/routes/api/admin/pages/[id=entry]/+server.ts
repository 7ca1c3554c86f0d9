import { json } from '@sveltejs/kit';
import { draftSaveSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { api, readJson } from '$lib/server/http/api';
import { CONTENT_BODY_LIMIT } from '$lib/server/http/body-limits';
import { requireAdmin } from '$lib/server/http/guards';

/** The entry: live fields, draft, revisions, preview address. */
export const GET = api(async (event) => {
	await requireAdmin(event);
	return json(await content.entry(event.params.id!));
});

/** Saves the draft if `version` is the entry's (`{ version }`); else 409 with what is saved now. */
export const PUT = api(async (event) => {
	const admin = await requireAdmin(event);
	const { version, draft } = await readJson(event, draftSaveSchema, CONTENT_BODY_LIMIT);
	return json(await content.saveDraft(event.params.id!, version, draft, admin));
});

/** 204; articles only (a page of the site cannot be deleted: 409). Its address answers 301 to /blog. */
export const DELETE = api(async (event) => {
	const admin = await requireAdmin(event);
	await content.deleteArticle(event.params.id!, admin);
	return new Response(null, { status: 204 });
});
