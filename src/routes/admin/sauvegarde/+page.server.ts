import * as backup from '$lib/server/backup';
import { requireAdmin } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	return { backup: await backup.overview() };
};
