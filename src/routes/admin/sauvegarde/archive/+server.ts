import { redirect } from '@sveltejs/kit';
import * as backup from '$lib/server/backup';
import type { SessionUser } from '$lib/server/auth';
import { ConflictError, ValidationError } from '$lib/server/errors';
import { requireAdmin } from '$lib/server/http/guards';
import { deferUntilConfirmed, isRecentlyConfirmed } from '$lib/server/http/reauthentication';
import type { RequestEvent, RequestHandler } from './$types';

/**
 * The whole site as one archive (docs/operations.md), encrypted with age and streamed as it is written: GET seals it
 * to the backup keys, POST with the passphrase the admin typed (form on /admin/sauvegarde). It opens every account,
 * so the session must have re-authenticated within ten minutes (else /admin/confirmer, then back to
 * /admin/sauvegarde with the download offered again), and every admin is e-mailed that it happened.
 */
async function archive(event: RequestEvent, admin: SessionUser, sealing: backup.DownloadSealing) {
	if (!isRecentlyConfirmed(event))
		deferUntilConfirmed(event, 'backup', 'site', new URL('/admin/sauvegarde', event.url));
	let download;
	try {
		download = await backup.download(
			admin,
			{ userAgent: event.request.headers.get('user-agent'), address: event.getClientAddress() },
			sealing
		);
	} catch (error) {
		// Another download is on its way: back to the page, which says so (never a 500).
		if (error instanceof ConflictError) redirect(303, '/admin/sauvegarde?occupee=1#telecharger');
		throw error;
	}
	const { fileName, body } = download;
	return new Response(body, {
		headers: {
			'content-type': 'application/octet-stream',
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'no-store'
		}
	});
}

export const GET: RequestHandler = async (event) => {
	const admin = await requireAdmin(event);
	return archive(event, admin, { kind: 'keys' });
};

export const POST: RequestHandler = async (event) => {
	const admin = await requireAdmin(event);
	const form = await event.request.formData().catch(() => null);
	const passphrase = form?.get('passphrase');
	const repeated = form?.get('confirmation');
	if (typeof passphrase !== 'string' || passphrase.length < backup.MIN_PASSPHRASE_LENGTH)
		redirect(303, '/admin/sauvegarde?phrase=courte#telecharger');
	if (passphrase !== repeated) redirect(303, '/admin/sauvegarde?phrase=differente#telecharger');
	try {
		return await archive(event, admin, { kind: 'passphrase', passphrase });
	} catch (error) {
		if (error instanceof ValidationError) redirect(303, '/admin/sauvegarde?phrase=courte#telecharger');
		throw error;
	}
};
