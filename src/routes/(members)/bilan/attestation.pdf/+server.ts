import { error, redirect } from '@sveltejs/kit';
import { Readable } from 'node:stream';
import * as courses from '$lib/server/courses';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import * as training from '$lib/server/training';
import type { RequestHandler } from './$types';

/**
 * The member's attestation (issued at the first download, once every published module is completed): the very
 * file kept at issue, whose SHA-256 the public page knows. Kept by nobody but the member's browser.
 */
export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	// The end-of-course survey is asked first (answered or « Plus tard »): /bilan shows it.
	const [state, hotDone] = await Promise.all([courses.attestationState(user.id), training.hotDone(user.id)]);
	if (!state.issued && !hotDone) redirect(303, '/bilan');
	try {
		const { file } = await courses.attestationDownload(user);
		file.body.on('error', () => {
			// A storage read that fails midway ends the response; the storage driver logs it.
		});
		return new Response(Readable.toWeb(file.body) as ReadableStream, {
			headers: {
				'content-type': 'application/pdf',
				'content-length': String(file.info.size),
				'content-disposition': 'attachment; filename="attestation-fin-de-formation.pdf"',
				'cache-control': 'private, no-store',
				'x-content-type-options': 'nosniff'
			}
		});
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};
