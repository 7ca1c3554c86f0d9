import { attachment } from '$lib/server/http/attachment';
import { requireAdmin } from '$lib/server/http/guards';
import { orErrorPage } from '$lib/server/http/pages';
import * as privacy from '$lib/server/privacy';
import type { RequestHandler } from './$types';

/** The same file a member downloads from their profile, produced by an admin for a member who asks by mail. */
export const GET: RequestHandler = async (event) => {
	const admin = await requireAdmin(event);
	const file = await orErrorPage(() => privacy.personalDataFileFor(event.params.id, admin));
	return attachment(file.body, file.name, 'application/json; charset=utf-8');
};
