import { error, type RequestEvent } from '@sveltejs/kit';
import { mailPreviewQuerySchema } from '$lib/schemas/mail';
import * as emails from '$lib/server/mail/previews';

/** The template named in the URL, rendered with sample data in the requested theme; 404 for an unknown name. */
export function previewOf(event: Pick<RequestEvent, 'params' | 'url'>) {
	const preview = emails.previewOf(event.params.template ?? '');
	if (!preview) error(404, 'Modèle d’e-mail inconnu');
	const { theme } = mailPreviewQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	return { preview, theme, rendered: preview.render(theme) };
}
