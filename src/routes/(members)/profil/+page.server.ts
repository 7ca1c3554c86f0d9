import { fail } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { nameChangeSchema, passwordChangeSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { requireUser } from '$lib/server/http/guards';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	return {
		nameForm: await superValidate({ name: user.name }, zod4(nameChangeSchema), { id: 'name' }),
		passwordForm: await superValidate(zod4(passwordChangeSchema), { id: 'password' })
	};
};

export const actions: Actions = {
	name: async (event) => {
		const user = requireUser(event);
		const form = await superValidate(event.request, zod4(nameChangeSchema), { id: 'name' });
		if (!form.valid) return fail(400, { nameForm: form });
		await auth.updateName(user.id, form.data.name);
		message(form, { type: 'success', text: 'Votre nom a été mis à jour.' });
		return { nameForm: form };
	},
	password: async (event) => {
		const user = requireUser(event);
		const form = await superValidate(event.request, zod4(passwordChangeSchema), { id: 'password' });
		if (!form.valid) return fail(400, { passwordForm: form });
		try {
			await auth.changePassword({
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
		message(form, {
			type: 'success',
			text: 'Mot de passe modifié. Vos autres sessions ont été déconnectées.'
		});
		return { passwordForm: form };
	}
};
