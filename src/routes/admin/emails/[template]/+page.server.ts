import * as auth from '$lib/server/auth';
import type { PageServerLoad } from './$types';
import { previewOf } from './preview.server';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	const { preview, theme, rendered } = previewOf(event);
	return {
		name: preview.name,
		label: preview.label,
		theme,
		subject: rendered.subject,
		text: rendered.text
	};
};
