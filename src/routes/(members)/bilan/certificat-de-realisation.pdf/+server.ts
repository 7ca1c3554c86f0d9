import { error } from '@sveltejs/kit';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import { documentDownload } from '$lib/server/http/document-download';
import * as training from '$lib/server/training';
import type { RequestHandler } from './$types';

/**
 * The member's certificat de réalisation (the Ministry's model), made now from the modules completed so far: from
 * the first one on (409 before).
 */
export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	try {
		return documentDownload(await training.certificate(user.id), 'certificat-de-realisation.pdf');
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};
