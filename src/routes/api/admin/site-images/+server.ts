import { json } from '@sveltejs/kit';
import { siteImageUpdateSchema } from '$lib/schemas/site-images';
import * as auth from '$lib/server/auth';
import { api, readJson } from '$lib/server/http/api';
import * as images from '$lib/server/images';

export const GET = api(async (event) => {
	await auth.requireAdmin(event);
	return json({ images: await images.listSlots() }, { headers: { 'cache-control': 'no-store' } });
});

export const PUT = api(async (event) => {
	const admin = await auth.requireAdmin(event);
	const change = await readJson(event, siteImageUpdateSchema);
	return json(await images.replaceSlot(change, admin.id));
});
