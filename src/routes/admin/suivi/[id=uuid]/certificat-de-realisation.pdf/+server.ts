import { error } from '@sveltejs/kit';
import { AppError } from '$lib/server/errors';
import { requireAdmin } from '$lib/server/http/guards';
import { documentDownload } from '$lib/server/http/document-download';
import * as training from '$lib/server/training';
import type { RequestHandler } from './$types';

/** A learner's certificat de réalisation, for the admin to send a funder: the modules completed so far. */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	try {
		return documentDownload(await training.certificate(event.params.id), 'certificat-de-realisation.pdf');
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};
