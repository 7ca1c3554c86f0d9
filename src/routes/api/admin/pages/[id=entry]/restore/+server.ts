import { json } from '@sveltejs/kit';
import { restoreSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/**
 * Publishes a copy of an earlier revision as a new one, if `version` is still the page's: `{ version, revision }`;
 * 409 when stale (with the page as it now is), 404 for a revision that never was.
 */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const { version, revision } = await readJson(event, restoreSchema);
	return json(await content.restore(event.params.id!, version, revision, admin));
});
