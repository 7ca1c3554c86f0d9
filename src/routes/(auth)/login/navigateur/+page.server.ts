import { fail } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { DEVICE_LINK_SENT } from '$lib/messages';
import { resetRequestSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async () => ({
	form: await superValidate(zod4(resetRequestSchema), { id: 'device-link' })
});

export const actions: Actions = {
	/**
	 * « Recevoir un lien pour ce navigateur » (offered by /login while strangers keep the account slowed down): the
	 * same answer whether the account exists or not, and whether a link already went in the last five minutes.
	 */
	default: async (event) => {
		const form = await superValidate(event.request, zod4(resetRequestSchema), { id: 'device-link' });
		if (!form.valid) return fail(400, { form });
		try {
			await auth.sendDeviceLink(form.data.email, event.getClientAddress(), {
				userAgent: event.request.headers.get('user-agent'),
				address: event.getClientAddress()
			});
		} catch (error) {
			return formFailure(event, form, error);
		}
		return { form, sent: DEVICE_LINK_SENT };
	}
};
