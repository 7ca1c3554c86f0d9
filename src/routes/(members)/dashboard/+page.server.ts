import { requireUser } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = (event) => {
	requireUser(event);
	return {};
};
