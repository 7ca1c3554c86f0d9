import * as backup from '$lib/server/backup';
import { requireAdmin } from '$lib/server/http/guards';
import { deferUntilConfirmed, isRecentlyConfirmed } from '$lib/server/http/reauthentication';
import type { RequestEvent } from '@sveltejs/kit';
import type { SessionUser } from '$lib/server/auth';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	// The download wants a confirmation of ten minutes at most; until then the page offers to confirm first.
	const phrase = event.url.searchParams.get('phrase');
	return {
		backup: await backup.overview(),
		confirmed: isRecentlyConfirmed(event),
		minPassphrase: backup.MIN_PASSPHRASE_LENGTH,
		passphraseError:
			phrase === 'courte'
				? `La phrase de passe doit compter au moins ${backup.MIN_PASSPHRASE_LENGTH} caractères.`
				: phrase === 'differente'
					? 'Les deux phrases de passe ne sont pas identiques.'
					: null,
		busy: event.url.searchParams.has('occupee')
	};
};

/** To /admin/confirmer unless this session confirmed within ten minutes; then the page offers the link. */
async function confirmForDownload(event: RequestEvent, admin: SessionUser) {
	await event.request.arrayBuffer();
	if (!isRecentlyConfirmed(event))
		deferUntilConfirmed(event, 'backup', admin.id, new URL('/admin/sauvegarde', event.url));
	return { confirmed: true };
}

export const actions: Actions = {
	/** « Confirmer mon identité et télécharger »: to /admin/confirmer, then back here with the link. */
	download: async (event) => {
		const admin = await requireAdmin(event);
		return confirmForDownload(event, admin);
	}
};
