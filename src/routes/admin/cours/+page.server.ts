import {
	moduleIdSchema,
	moduleMoveSchema,
	moduleOrderSchema,
	signatureUploadSchema
} from '$lib/schemas/modules';
import { courseSettingsFormSchema, positioningToText } from '$lib/schemas/training';
import * as courses from '$lib/server/courses';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { readSingleFile } from '$lib/server/http/multipart';
import { requireAdmin } from '$lib/server/http/guards';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const [modules, files, settings, signature] = await Promise.all([
		courses.list(),
		courses.filesTotal(),
		courses.settings(),
		courses.signatureVersion()
	]);
	return {
		files,
		settings: {
			...courses.programmeSheetOf(settings),
			sequential: settings.sequential,
			coldSurveyDays: settings.coldSurveyDays
		},
		missing: courses.missingSheetFields(settings),
		positioningText: positioningToText(settings.positioning),
		surveyText: (settings.surveyQuestions ?? []).join('\n'),
		signature,
		modules: modules.map((m) => ({
			id: m.id,
			slug: m.slug,
			title: m.title,
			published: m.published,
			durationMinutes: m.durationMinutes,
			quizQuestions: m.quiz?.questions.length ?? 0,
			updatedAt: m.updatedAt.toISOString()
		}))
	};
};

export const actions: Actions = {
	settings: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), courseSettingsFormSchema, [], async (settings) => {
			await courses.updateSettings(settings, admin);
			return {
				done: settings.sequential
					? 'Réglages enregistrés : les modules s’ouvrent dans l’ordre.'
					: 'Réglages enregistrés : les modules s’ouvrent librement.'
			};
		});
	},
	signature: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction({}, signatureUploadSchema, [], async () => {
			const file = await readSingleFile(event.request, 'file', courses.SIGNATURE_MAX_BYTES);
			await courses.setSignature(file, admin);
			return { done: 'Signature enregistrée : les prochaines attestations la portent.' };
		});
	},
	removeSignature: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), signatureUploadSchema, [], async () => {
			await courses.removeSignature(admin);
			return { done: 'Signature retirée : les prochaines attestations laissent la place pour la signer.' };
		});
	},
	move: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(
			await formFields(event.request),
			moduleMoveSchema,
			['id'],
			async ({ id, direction }) => {
				await courses.move(id, direction, admin);
				return { done: direction === 'up' ? 'Module monté d’un cran.' : 'Module descendu d’un cran.' };
			}
		);
	},
	reorder: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), moduleOrderSchema, [], async ({ order }) => {
			await courses.reorder(order, admin);
			return { done: 'Nouvel ordre enregistré.' };
		});
	},
	publish: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), moduleIdSchema, ['id'], async ({ id }) => {
			const module = await courses.get(id);
			const updated = await courses.update(id, { published: !module.published }, admin);
			return {
				done: updated.published ? 'Module publié.' : 'Module dépublié : les membres ne le voient plus.'
			};
		});
	},
	delete: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), moduleIdSchema, ['id'], async ({ id }) => {
			await courses.remove(id, admin);
			return { done: 'Module supprimé.' };
		});
	}
};
