import { json } from '@sveltejs/kit';
import * as content from '$lib/server/content';
import { api } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** A published revision's fields: `{ n, fields }`; 404 for one that never was. */
export const GET = api(async (event) => {
	await requireAdmin(event);
	return json(await content.revision(event.params.id!, event.params.n!));
});
