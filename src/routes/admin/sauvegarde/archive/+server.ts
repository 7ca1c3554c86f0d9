import * as backup from '$lib/server/backup';
import { requireAdmin } from '$lib/server/http/guards';
import type { RequestHandler } from './$types';

/** The whole site as one archive (docs/operations.md), streamed as it is written. */
export const GET: RequestHandler = async (event) => {
	const admin = await requireAdmin(event);
	const { fileName, body } = await backup.download(admin);
	return new Response(body, {
		headers: {
			'content-type': 'application/gzip',
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'no-store'
		}
	});
};
