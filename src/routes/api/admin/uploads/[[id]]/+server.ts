import * as courses from '$lib/server/courses';
import { ForbiddenError } from '$lib/server/errors';
import { api } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';
import type { RequestEvent } from './$types';

/**
 * tus 1.0 for the course's files (README, « Course files »): POST creates an upload, HEAD says how much arrived,
 * PATCH adds bytes, DELETE gives it up; the last PATCH answers the stored file as JSON. Admins only, from this
 * site's own pages: a browser's request from another origin is refused (and no CORS header is ever granted).
 */
async function tus(event: RequestEvent): Promise<Response> {
	await requireAdmin(event);
	const origin = event.request.headers.get('origin');
	if (origin !== null && origin !== event.url.origin)
		throw new ForbiddenError('Les envois se font depuis les pages d’administration du site.');
	return courses.handleUpload(event.request);
}

export const POST = api(tus);
export const PATCH = api(tus);
export const HEAD = api(tus);
export const DELETE = api(tus);
export const OPTIONS = api(tus);
