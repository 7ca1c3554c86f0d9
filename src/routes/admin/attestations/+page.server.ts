import { error } from '@sveltejs/kit';
import { attestationRevokeSchema } from '$lib/schemas/modules';
import * as courses from '$lib/server/courses';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { deferUntilConfirmed, isRecentlyConfirmed } from '$lib/server/http/reauthentication';
import type { RequestEvent } from '@sveltejs/kit';
import type { SessionUser } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

/** To /admin/confirmer (the action kept is a no-op), then back here with the forms that revoke. */
async function askConfirmation(event: RequestEvent, admin: SessionUser) {
	await event.request.arrayBuffer();
	if (!isRecentlyConfirmed(event))
		deferUntilConfirmed(event, 'attestations', admin.id, new URL('/admin/attestations', event.url));
	return { done: 'Identité déjà confirmée.' };
}

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const attestations = await courses.listAttestations();
	return { attestations, confirmed: isRecentlyConfirmed(event) };
};

export const actions: Actions = {
	/** « Confirmer mon identité »: to /admin/confirmer, then back here with the forms that revoke. */
	confirm: async (event) => {
		const admin = await requireAdmin(event);
		return askConfirmation(event, admin);
	},
	revoke: async (event) => {
		const admin = await requireAdmin(event);
		const fields = await formFields(event.request);
		// The forms are shown only once confirmed; a form posted later than ten minutes is refused, not carried out.
		if (!isRecentlyConfirmed(event))
			error(403, 'Confirmez d’abord votre identité : la révocation le demande (dix minutes).');
		return schemaAction(fields, attestationRevokeSchema, ['id'], async ({ id, reason }) => {
			await courses.revokeAttestation(id, reason, admin);
			return { done: 'Attestation révoquée : sa page de vérification le dit désormais, avec le motif.' };
		});
	}
};
