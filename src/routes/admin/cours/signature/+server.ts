import { error } from '@sveltejs/kit';
import * as courses from '$lib/server/courses';
import { requireAdmin } from '$lib/server/http/guards';
import type { RequestHandler } from './$types';

/** The attestation's signature image, for the preview in /admin/cours: admins only, never cached. */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	const image = await courses.signatureImage();
	if (!image) error(404, 'Aucune signature n’est enregistrée.');
	return new Response(new Uint8Array(image), {
		headers: {
			'content-type': 'image/webp',
			'content-length': String(image.length),
			'cache-control': 'private, no-store',
			'x-content-type-options': 'nosniff'
		}
	});
};
