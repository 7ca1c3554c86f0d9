import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { db } from '$lib/server/db';
import { siteImageKeySchema, siteImageUrlSchema } from '$lib/schemas/site-images';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { readSingleFile } from '$lib/server/http/multipart';
import * as images from '$lib/server/images';
import { storage } from '$lib/server/storage';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	return { images: await images.listSiteImages(db, storage), remoteHosts: config.imageRemoteHosts };
};

/** The same changes as the JSON API; the page's forms post here, with or without JavaScript. */
const save = (key: string, url: string | null, adminId: string) =>
	images.setSiteImage({ db, storage, config }, { key, url }, adminId);

export const actions: Actions = {
	url: async (event) => {
		const admin = await auth.requireAdmin(event);
		return schemaAction(
			await formFields(event.request),
			siteImageUrlSchema,
			['key'],
			async ({ key, url }) => {
				await save(key, url, admin.id);
				return { done: true };
			}
		);
	},
	reset: async (event) => {
		const admin = await auth.requireAdmin(event);
		return schemaAction(await formFields(event.request), siteImageKeySchema, ['key'], async ({ key }) => {
			await save(key, null, admin.id);
			return { done: true };
		});
	},
	upload: async (event) => {
		const admin = await auth.requireAdmin(event);
		// The slot is in the query string: the body is the file, streamed.
		const query = Object.fromEntries(event.url.searchParams);
		return schemaAction(query, siteImageKeySchema, ['key'], async ({ key }) => {
			const file = await readSingleFile(event.request, 'file', images.MAX_UPLOAD_BYTES);
			const stored = await images.storeUpload(storage, file.data, file.mimeType, {
				maxEdge: config.imageMaxEdge
			});
			await save(key, stored.value, admin.id);
			return { stats: stored.stats };
		});
	}
};
