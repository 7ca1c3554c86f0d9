import { json } from '@sveltejs/kit';
import { requireAdmin } from '$lib/server/http/guards';
import { api } from '$lib/server/http/api';
import * as images from '$lib/server/images';

export const POST = api(async (event) => {
	await requireAdmin(event);
	return json(await images.upload(event.request), { status: 201 });
});
