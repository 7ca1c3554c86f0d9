import { json } from '@sveltejs/kit';
import { articleCreateSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { api, readJson } from '$lib/server/http/api';
import { CONTENT_BODY_LIMIT } from '$lib/server/http/body-limits';
import { requireAdmin } from '$lib/server/http/guards';

/** Every entry: the site's pages, the company file and the articles. */
export const GET = api(async (event) => {
	await requireAdmin(event);
	const entries = await content.entries();
	return json({
		entries: entries.map(({ id, path, kind, title, version, hasDraft, updatedAt }) => ({
			id,
			path,
			kind,
			title,
			version,
			hasDraft,
			updatedAt
		}))
	});
});

/** 201 with the new article (a draft); 400 naming the field; 409 when its address is taken. */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const { kind: _, ...input } = await readJson(event, articleCreateSchema, CONTENT_BODY_LIMIT);
	return json(await content.createArticle(input, admin), { status: 201 });
});
