import { fail } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { NAME_UPDATED, PASSWORD_CHANGED } from '$lib/messages';
import { nameChangeSchema, passwordChangeSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { db } from '$lib/server/db';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = auth.requireUser(event);
	return {
		nameForm: await superValidate({ name: user.name }, zod4(nameChangeSchema), { id: 'name' }),
		passwordForm: await superValidate(zod4(passwordChangeSchema), { id: 'password' })
	};
};

export const actions: Actions = {
	name: async (event) => {
		const user = auth.requireUser(event);
		const form = await superValidate(event.request, zod4(nameChangeSchema), { id: 'name' });
		if (!form.valid) return fail(400, { nameForm: form });
		await auth.updateName(db, user.id, form.data.name);
		message(form, { type: 'success', text: NAME_UPDATED });
		return { nameForm: form };
	},
	password: async (event) => {
		const user = auth.requireUser(event);
		const form = await superValidate(event.request, zod4(passwordChangeSchema), { id: 'password' });
		if (!form.valid) return fail(400, { passwordForm: form });
		try {
			await auth.changePassword(db, {
				userId: user.id,
				sessionId: event.locals.session!.id,
				currentPassword: form.data.currentPassword,
				newPassword: form.data.newPassword
			});
		} catch (error) {
			form.data.currentPassword = '';
			form.data.newPassword = '';
			const failure = formFailure(event, form, error);
			return fail(failure.status, { passwordForm: failure.data.form });
		}
		form.data.currentPassword = '';
		form.data.newPassword = '';
		message(form, { type: 'success', text: PASSWORD_CHANGED });
		return { passwordForm: form };
	}
};
