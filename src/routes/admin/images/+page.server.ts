import { fail } from '@sveltejs/kit';
import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { db } from '$lib/server/db';
import { AppError } from '$lib/server/errors';
import { readSingleFile } from '$lib/server/http/multipart';
import * as images from '$lib/server/images';
import { storage } from '$lib/server/storage';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	return { images: await images.listSiteImages(db, storage), remoteHosts: config.imageRemoteHosts };
};

/** The same changes as the JSON API, for browsers without JavaScript. */
async function change(
	event: Parameters<Actions[string]>[0],
	key: string,
	url: string | null,
	adminId: string
) {
	try {
		await images.setSiteImage({ db, storage, config }, { key, url }, adminId);
		return { key, ok: true as const };
	} catch (error) {
		if (error instanceof AppError) {
			const messages = error.extra.errors ? Object.values(error.extra.errors).flat() : [error.message];
			return fail(error.status, { key, error: messages.join(' ') });
		}
		throw error;
	}
}

export const actions: Actions = {
	url: async (event) => {
		const admin = await auth.requireAdmin(event);
		const form = await event.request.formData();
		return change(event, String(form.get('key') ?? ''), String(form.get('url') ?? '').trim(), admin.id);
	},
	reset: async (event) => {
		const admin = await auth.requireAdmin(event);
		const form = await event.request.formData();
		return change(event, String(form.get('key') ?? ''), null, admin.id);
	},
	upload: async (event) => {
		const admin = await auth.requireAdmin(event);
		const key = event.url.searchParams.get('key') ?? '';
		try {
			const file = await readSingleFile(event.request, 'file', images.MAX_UPLOAD_BYTES);
			const stored = await images.storeUpload(storage, file.data, file.mimeType, {
				maxEdge: config.imageMaxEdge
			});
			const result = await change(event, key, stored.value, admin.id);
			return 'ok' in result ? { ...result, stats: stored.stats } : result;
		} catch (error) {
			if (error instanceof AppError) return fail(error.status, { key, error: error.message });
			throw error;
		}
	}
};
