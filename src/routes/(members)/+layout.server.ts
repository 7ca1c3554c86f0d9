import { requireUser } from '$lib/server/http/guards';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = (event) => {
	const user = requireUser(event);
	return { member: { name: user.name, email: user.email, isAdmin: user.isAdmin } };
};
