import { json } from '@sveltejs/kit';
import { versionSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** « Annuler les modifications »: the draft goes, the live revision stays: `{ version }`; 409 when stale. */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const { version } = await readJson(event, versionSchema);
	return json(await content.discardDraft(event.params.id!, version, admin));
});
