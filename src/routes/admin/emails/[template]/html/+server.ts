import { requireAdmin } from '$lib/server/http/guards';
import type { RequestHandler } from './$types';
import { previewOf } from '../preview.server';

/** The e-mail's HTML as a mail client would receive it, for the preview frame of the page next door. */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	const { rendered } = previewOf(event);
	return new Response(rendered.html, {
		headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-store' }
	});
};
