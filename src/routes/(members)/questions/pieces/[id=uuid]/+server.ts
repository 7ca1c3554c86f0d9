import { error } from '@sveltejs/kit';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import { mediaResponse } from '$lib/server/http/media';
import * as training from '$lib/server/training';
import type { RequestHandler } from './$types';

/**
 * A message's attachment, for the member of its thread or an admin (404 for anyone else), streamed from the private
 * bucket as a download (`Content-Disposition: attachment`, `nosniff`): a PDF or an image checked by its bytes.
 */
export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	const request = { method: event.request.method, header: (name: string) => event.request.headers.get(name) };
	try {
		return await mediaResponse(await training.attachmentAnswer(request, event.params.id, user));
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};
