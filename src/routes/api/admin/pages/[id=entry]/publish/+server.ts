import { json } from '@sveltejs/kit';
import { publishSchema } from '$lib/schemas/content';
import * as content from '$lib/server/content';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/**
 * The draft becomes the next live revision: `{ version, revision }`; 400 naming the field (draft kept); 409 when
 * stale. With `at`, a later time: 202 `{ version, scheduledAt }`, published by itself then (content/schedule.ts).
 */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const { version, at } = await readJson(event, publishSchema);
	if (at)
		return json(await content.schedulePublish(event.params.id!, version, new Date(at), admin), {
			status: 202
		});
	return json(await content.publish(event.params.id!, version, admin));
});
