import * as backup from '$lib/server/backup';
import { requireAdmin } from '$lib/server/http/guards';
import { deferUntilConfirmed, isRecentlyConfirmed } from '$lib/server/http/reauthentication';
import type { RequestHandler } from './$types';

/**
 * The whole site as one archive (docs/operations.md), streamed as it is written. It opens every account, so the
 * session must have re-authenticated within ten minutes (else /admin/confirmer, then back to /admin/sauvegarde
 * with the link offered again), and every admin is e-mailed that it happened.
 */
export const GET: RequestHandler = async (event) => {
	const admin = await requireAdmin(event);
	if (!isRecentlyConfirmed(event))
		deferUntilConfirmed(event, 'backup', 'site', new URL('/admin/sauvegarde', event.url));
	const { fileName, body } = await backup.download(admin, {
		userAgent: event.request.headers.get('user-agent'),
		address: event.getClientAddress()
	});
	return new Response(body, {
		headers: {
			'content-type': 'application/gzip',
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'no-store'
		}
	});
};
