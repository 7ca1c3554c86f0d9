import { error, fail } from '@sveltejs/kit';
import * as courses from '$lib/server/courses';
import { AppError, RateLimitedError } from '$lib/server/errors';
import { ATTESTATION_FILE_LIMIT } from '$lib/server/http/body-limits';
import { formBody } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

/**
 * Sent without SvelteKit's client: the file is hashed in the browser by the page's one small script
 * ($lib/platform/attestation-check.js), never sent; without it, the form sends the file and `file` below compares it.
 */
export const csr = false;

/**
 * The public page of an attestation (no account; not indexed, not kept by caches): valid, revoked or withdrawn,
 * with the name, programme and date — and a check that a PDF is the very one issued.
 */
export const load: PageServerLoad = async (event) => {
	event.setHeaders({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex' });
	try {
		const check = await courses.checkAttestation(event.params.code, event.getClientAddress());
		return { check };
	} catch (failure) {
		if (failure instanceof RateLimitedError) event.setHeaders(failure.extra.headers ?? {});
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
};

export const actions: Actions = {
	/** Without JavaScript the file is sent and hashed here (with it, the browser hashes it and sends nothing). */
	file: async (event) => {
		const form = await formBody(event.request);
		const file = form.get('file');
		if (!(file instanceof File) || file.size === 0)
			return fail(400, { fileError: 'Choisissez le fichier PDF de l’attestation.' });
		if (file.size > ATTESTATION_FILE_LIMIT)
			return fail(400, { fileError: 'Ce fichier est trop gros pour être une attestation (2 Mo au plus).' });
		try {
			const same = await courses.isIssuedAttestation(
				event.params.code,
				new Uint8Array(await file.arrayBuffer()),
				event.getClientAddress()
			);
			return { same, fileName: file.name.slice(0, 120) };
		} catch (failure) {
			if (failure instanceof AppError) return fail(failure.status, { fileError: failure.message });
			throw failure;
		}
	}
};
