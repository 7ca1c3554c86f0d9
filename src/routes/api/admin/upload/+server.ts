import { json } from '@sveltejs/kit';
import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { api } from '$lib/server/http/api';
import { readSingleFile } from '$lib/server/http/multipart';
import * as images from '$lib/server/images';
import { storage } from '$lib/server/storage';

export const POST = api(async (event) => {
	await auth.requireAdmin(event);
	const file = await readSingleFile(event.request, 'file', images.MAX_UPLOAD_BYTES);
	const stored = await images.storeUpload(storage, file.data, file.mimeType, {
		maxEdge: config.imageMaxEdge
	});
	return json(stored, { status: 201 });
});
