import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { reauthenticationSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { formFailure } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { ADMIN_ACTIONS, describeAdminAction } from '$lib/server/http/admin-actions';
import { afterConfirmation, carryOutDeferred, peekDeferred } from '$lib/server/http/reauthentication';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const admin = await requireAdmin(event);
	const deferred = peekDeferred(event.cookies, event.locals.session!.id);
	return {
		method: await auth.reauthenticationMethod(admin.id),
		// What the confirmation will carry out, said before the password or code is typed.
		pending: deferred && (await describeAdminAction(deferred.action, deferred.target)),
		form: await superValidate(zod4(reauthenticationSchema))
	};
};

export const actions: Actions = {
	default: async (event) => {
		const admin = await requireAdmin(event);
		const form = await superValidate(event.request, zod4(reauthenticationSchema));
		if (!form.valid) return fail(400, { form });
		try {
			await auth.reauthenticate(event.locals.session!.id, admin, form.data.secret);
		} catch (error) {
			form.data.secret = '';
			return formFailure(event, form, error);
		}
		// The action that asked for the confirmation is carried out now, and the next page says what it did.
		await carryOutDeferred(event, admin, ADMIN_ACTIONS);
		redirect(303, afterConfirmation(event.url.searchParams.get('redirectTo')));
	}
};
