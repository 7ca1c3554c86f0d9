import { json } from '@sveltejs/kit';
import { moduleUpdateSchema } from '$lib/schemas/modules';
import * as courses from '$lib/server/courses';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

export const GET = api(async (event) => {
	await requireAdmin(event);
	return json(await courses.get(event.params.id!));
});

/** A partial update, the publish state included; 409 on a taken slug. */
export const PUT = api(async (event) => {
	const admin = await requireAdmin(event);
	const changes = await readJson(event, moduleUpdateSchema);
	return json(await courses.update(event.params.id!, changes, admin));
});

/** 204; the members' progress on it goes with it. */
export const DELETE = api(async (event) => {
	const admin = await requireAdmin(event);
	await courses.remove(event.params.id!, admin);
	return new Response(null, { status: 204 });
});
