import { error } from '@sveltejs/kit';
import { AppError } from '$lib/server/errors';
import { requireAdmin } from '$lib/server/http/guards';
import { documentDownload } from '$lib/server/http/document-download';
import * as training from '$lib/server/training';
import type { RequestHandler } from './$types';

/** A learner's proof file (a ZIP of CSVs and their documents), for a control or a funder. */
export const GET: RequestHandler = async (event) => {
	await requireAdmin(event);
	try {
		const day = new Date().toISOString().slice(0, 10);
		return documentDownload(
			await training.proofArchive(event.params.id),
			`preuves-${day}.zip`,
			'application/zip'
		);
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};
