import { json } from '@sveltejs/kit';
import { courseSettingsSchema } from '$lib/schemas/training';
import * as courses from '$lib/server/courses';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** The course's settings: `{ title, sequential }` (the programme's name; « Ordre imposé »). */
export const GET = api(async (event) => {
	await requireAdmin(event);
	return json(await courses.settings());
});

/** Both fields; 400 naming a field that is wrong. */
export const PUT = api(async (event) => {
	const admin = await requireAdmin(event);
	const input = await readJson(event, courseSettingsSchema);
	return json(await courses.updateSettings(input, admin));
});
