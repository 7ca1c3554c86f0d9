import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { db } from '$lib/server/db';
import { actionResult } from '$lib/server/http/forms';
import { readSingleFile } from '$lib/server/http/multipart';
import * as images from '$lib/server/images';
import { storage } from '$lib/server/storage';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	return { images: await images.listSiteImages(db, storage), remoteHosts: config.imageRemoteHosts };
};

/** The same changes as the JSON API, for browsers without JavaScript. */
const save = (key: string, url: string | null, adminId: string) =>
	images.setSiteImage({ db, storage, config }, { key, url }, adminId);

export const actions: Actions = {
	url: async (event) => {
		const admin = await auth.requireAdmin(event);
		const form = await event.request.formData();
		const key = String(form.get('key') ?? '');
		const url = String(form.get('url') ?? '').trim();
		return actionResult({ key }, async () => (await save(key, url, admin.id), { done: true }));
	},
	reset: async (event) => {
		const admin = await auth.requireAdmin(event);
		const key = String((await event.request.formData()).get('key') ?? '');
		return actionResult({ key }, async () => (await save(key, null, admin.id), { done: true }));
	},
	upload: async (event) => {
		const admin = await auth.requireAdmin(event);
		const key = event.url.searchParams.get('key') ?? '';
		return actionResult({ key }, async () => {
			const file = await readSingleFile(event.request, 'file', images.MAX_UPLOAD_BYTES);
			const stored = await images.storeUpload(storage, file.data, file.mimeType, {
				maxEdge: config.imageMaxEdge
			});
			await save(key, stored.value, admin.id);
			return { stats: stored.stats };
		});
	}
};
