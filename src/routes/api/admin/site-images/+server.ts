import { json } from '@sveltejs/kit';
import { siteImageUpdateSchema } from '$lib/schemas/site-images';
import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { db } from '$lib/server/db';
import { api, readJson } from '$lib/server/http/api';
import * as images from '$lib/server/images';
import { storage } from '$lib/server/storage';

export const GET = api(async (event) => {
	await auth.requireAdmin(event);
	const entries = await images.listSiteImages(db, storage);
	return json({ images: entries }, { headers: { 'cache-control': 'no-store' } });
});

export const PUT = api(async (event) => {
	const admin = await auth.requireAdmin(event);
	const change = await readJson(event, siteImageUpdateSchema);
	return json(await images.setSiteImage({ db, storage, config }, change, admin.id));
});
