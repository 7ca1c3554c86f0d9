import * as courses from '$lib/server/courses';
import { ForbiddenError } from '$lib/server/errors';
import { api } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';
import type { RequestEvent } from './$types';

/**
 * tus 1.0 for the course's files (docs/courses.md, « Lessons people watch, files they keep »): POST creates an upload, HEAD
 * says how much arrived, PATCH adds bytes, DELETE gives it up; the last PATCH answers the stored file as JSON (and
 * the audit trail records it, with the admin). Admins only, from this site's own pages: a browser's request from
 * another origin is refused (and no CORS header is ever granted).
 */
function sameOrigin(event: RequestEvent): void {
	const origin = event.request.headers.get('origin');
	if (origin !== null && origin !== event.url.origin)
		throw new ForbiddenError('Les envois se font depuis les pages d’administration du site.');
}

export const POST = api(async (event: RequestEvent) => {
	const admin = await requireAdmin(event);
	sameOrigin(event);
	return courses.handleUpload(event.request, admin);
});

export const PATCH = api(async (event: RequestEvent) => {
	const admin = await requireAdmin(event);
	sameOrigin(event);
	return courses.handleUpload(event.request, admin);
});

export const DELETE = api(async (event: RequestEvent) => {
	const admin = await requireAdmin(event);
	sameOrigin(event);
	return courses.handleUpload(event.request, admin);
});

export const HEAD = api(async (event: RequestEvent) => {
	const admin = await requireAdmin(event);
	return courses.handleUpload(event.request, admin);
});

export const OPTIONS = api(async (event: RequestEvent) => {
	const admin = await requireAdmin(event);
	return courses.handleUpload(event.request, admin);
});
