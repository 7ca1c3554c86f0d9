import { fail } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { MODULE_MEDIA_PREFIX } from '$lib/markdown';
import { moduleFormSchema } from '$lib/schemas/modules';
import { QUIZ_PASS_PERCENT_DEFAULT, quizToText } from '$lib/schemas/quiz';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { formFailure } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import * as images from '$lib/server/images';
import { moduleFromForm } from '../module-form.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const module = await courses.get(event.params.id).catch((error) => {
		if (error instanceof AppError) return null;
		throw error;
	});
	// A form id of its own per module: the new-module page's form, still there during the navigation that follows a
	// creation, is another form (superforms warned of two forms sharing the schema's default id).
	const id = `module-${event.params.id}`;
	if (!module)
		return { module: null, files: null, form: await superValidate(zod4(moduleFormSchema), { id }) };
	const { title, slug, summary, content, durationMinutes, published } = module;
	const files = await courses.editorFilesOf(module);
	return {
		module: { id: module.id, slug: module.slug, published: module.published },
		files,
		form: await superValidate(
			{
				title,
				slug,
				summary,
				content,
				durationMinutes,
				published,
				video: module.video ?? '',
				captions: module.captions ?? '',
				poster: module.poster ?? '',
				attachments: JSON.stringify(module.attachments),
				quiz: quizToText(module.quiz),
				quizPassPercent: module.quiz?.passPercent ?? QUIZ_PASS_PERCENT_DEFAULT
			},
			zod4(moduleFormSchema),
			{ id }
		)
	};
};

export const actions: Actions = {
	save: async (event) => {
		const admin = await requireAdmin(event);
		const form = await superValidate(event.request, zod4(moduleFormSchema), {
			id: `module-${event.params.id}`
		});
		if (!form.valid) return fail(400, { form });
		try {
			const saved = await courses.update(event.params.id, moduleFromForm(form.data), admin);
			form.data.slug = saved.slug;
		} catch (error) {
			return formFailure(event, form, error);
		}
		return message(form, { type: 'success', text: 'Module enregistré.' });
	},
	/** An image for the module: through the upload pipeline, then a Markdown line to paste. */
	image: async (event) => {
		const admin = await requireAdmin(event);
		try {
			const stored = await images.upload(event.request, admin);
			return { imageMarkdown: `![Décrivez l’image](${MODULE_MEDIA_PREFIX}${stored.path})` };
		} catch (error) {
			if (error instanceof AppError) return fail(error.status, { imageError: error.message });
			throw error;
		}
	}
};
