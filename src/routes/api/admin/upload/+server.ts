import { json } from '@sveltejs/kit';
import * as auth from '$lib/server/auth';
import { api } from '$lib/server/http/api';
import * as images from '$lib/server/images';

export const POST = api(async (event) => {
	await auth.requireAdmin(event);
	return json(await images.upload(event.request), { status: 201 });
});
