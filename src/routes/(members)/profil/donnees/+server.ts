import { attachment } from '$lib/server/http/attachment';
import { requireUser } from '$lib/server/http/guards';
import * as privacy from '$lib/server/privacy';
import type { RequestHandler } from './$types';

/** "Télécharger mes données": everything held about the signed-in account (docs/personal-data.md). */
export const GET: RequestHandler = async (event) => {
	const user = requireUser(event);
	const file = await privacy.personalDataFile(user.id);
	return attachment(file.body, file.name, 'application/json; charset=utf-8');
};
