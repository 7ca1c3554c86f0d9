import { requireAdmin } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';
import { previewOf } from './preview.server';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const { preview, theme, rendered } = previewOf(event);
	return {
		name: preview.name,
		label: preview.label,
		theme,
		subject: rendered.subject,
		text: rendered.text
	};
};
