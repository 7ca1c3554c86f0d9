import { fail, redirect } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { moduleFormSchema } from '$lib/schemas/modules';
import * as courses from '$lib/server/courses';
import { formFailure } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { moduleFromForm } from '../module-form.server';
import type { Actions, PageServerLoad } from './$types';

const NEW_MODULE_FORM = 'module-new';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	// Its own form id: the module's page that follows a creation has another (`module-<id>`).
	return { form: await superValidate(zod4(moduleFormSchema), { id: NEW_MODULE_FORM }) };
};

export const actions: Actions = {
	save: async (event) => {
		const admin = await requireAdmin(event);
		const form = await superValidate(event.request, zod4(moduleFormSchema), { id: NEW_MODULE_FORM });
		if (!form.valid) return fail(400, { form });
		let id: string;
		try {
			id = (await courses.create(moduleFromForm(form.data), admin)).id;
		} catch (error) {
			return formFailure(event, form, error);
		}
		redirect(303, `/admin/cours/${id}`);
	}
};
