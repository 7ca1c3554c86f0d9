import { slotKeySchema, slotUrlSchema } from '$lib/schemas/site-image-actions';
import { requireAdmin } from '$lib/server/http/guards';
import { formFields, schemaAction } from '$lib/server/http/forms';
import * as images from '$lib/server/images';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	return { images: await images.listSlots(), remoteHosts: images.remoteHosts() };
};

/** The same changes as the JSON API; the page's forms post here, with or without JavaScript. */
export const actions: Actions = {
	url: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(
			await formFields(event.request),
			slotUrlSchema,
			['key'],
			async ({ key, url, alt }) => {
				await images.replaceSlot({ key, url, alt }, admin);
				return { done: true };
			}
		);
	},
	reset: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), slotKeySchema, ['key'], async ({ key }) => {
			await images.replaceSlot({ key, url: null }, admin);
			return { done: true };
		});
	},
	upload: async (event) => {
		const admin = await requireAdmin(event);
		// The slot is in the query string: the body is the file, streamed.
		const query = Object.fromEntries(event.url.searchParams);
		return schemaAction(query, slotKeySchema, ['key'], async ({ key }) => {
			const stored = await images.uploadToSlot(event.request, key, admin);
			return { stats: stored.stats, displayWidth: stored.displayWidth };
		});
	}
};
