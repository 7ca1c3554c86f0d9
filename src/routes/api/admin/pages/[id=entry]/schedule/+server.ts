import * as content from '$lib/server/content';
import { api } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** Cancels « Publier le … à … »: 204, the draft kept; 404 when nothing was scheduled. */
export const DELETE = api(async (event) => {
	const admin = await requireAdmin(event);
	await content.cancelSchedule(event.params.id!, admin);
	return new Response(null, { status: 204 });
});
