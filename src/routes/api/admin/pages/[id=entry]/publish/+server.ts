import { json } from '@sveltejs/kit';
import { versionSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** The draft becomes the next live revision: `{ version, revision }`; 400 naming the field (draft kept); 409 when stale. */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const { version } = await readJson(event, versionSchema);
	return json(await content.publish(event.params.id!, version, admin));
});
