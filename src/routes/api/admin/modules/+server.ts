import { json } from '@sveltejs/kit';
import { moduleCreateSchema } from '$lib/schemas/modules';
import * as courses from '$lib/server/courses';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** CONTRACT §3: every module, in order. */
export const GET = api(async (event) => {
	await requireAdmin(event);
	return json({ modules: await courses.list() });
});

/** CONTRACT §3: 201 with the module; 400 naming fields; 409 on a taken slug. */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const input = await readJson(event, moduleCreateSchema);
	return json(await courses.create(input, admin), { status: 201 });
});
