import { slotKeySchema, slotUrlSchema } from '$lib/schemas/site-image-actions';
import * as auth from '$lib/server/auth';
import { actionResult, formFields, parseFields } from '$lib/server/http/forms';
import * as images from '$lib/server/images';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	return { images: await images.listSlots(), remoteHosts: images.remoteHosts() };
};

/** The same changes as the JSON API, for browsers without JavaScript. */
export const actions: Actions = {
	url: async (event) => {
		const admin = await auth.requireAdmin(event);
		const fields = await formFields(event.request);
		return actionResult({ key: String(fields.key ?? '') }, async () => {
			const { key, url } = parseFields(fields, slotUrlSchema);
			await images.replaceSlot({ key, url }, admin.id);
			return { done: true };
		});
	},
	reset: async (event) => {
		const admin = await auth.requireAdmin(event);
		const fields = await formFields(event.request);
		return actionResult({ key: String(fields.key ?? '') }, async () => {
			const { key } = parseFields(fields, slotKeySchema);
			await images.replaceSlot({ key, url: null }, admin.id);
			return { done: true };
		});
	},
	upload: async (event) => {
		const admin = await auth.requireAdmin(event);
		const key = event.url.searchParams.get('key') ?? '';
		return actionResult({ key }, async () => {
			const { key: slot } = parseFields({ key }, slotKeySchema);
			const stored = await images.uploadToSlot(event.request, slot, admin.id);
			return { stats: stored.stats };
		});
	}
};
