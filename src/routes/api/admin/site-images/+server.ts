import { json } from '@sveltejs/kit';
import { siteImageUpdateSchema } from '$lib/schemas/site-images';
import { requireAdmin } from '$lib/server/http/guards';
import { api, readJson } from '$lib/server/http/api';
import * as images from '$lib/server/images';

export const GET = api(async (event) => {
	await requireAdmin(event);
	return json({ images: await images.listSlots() }, { headers: { 'cache-control': 'no-store' } });
});

export const PUT = api(async (event) => {
	const admin = await requireAdmin(event);
	const change = await readJson(event, siteImageUpdateSchema);
	return json(await images.replaceSlot(change, admin));
});
