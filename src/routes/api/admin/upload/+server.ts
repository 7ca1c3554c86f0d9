import { json } from '@sveltejs/kit';
import { requireAdmin } from '$lib/server/http/guards';
import { api } from '$lib/server/http/api';
import * as images from '$lib/server/images';

export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	return json(await images.upload(event.request, admin), { status: 201 });
});
