import * as auth from '$lib/server/auth';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = (event) => {
	const user = auth.requireUser(event);
	return { member: { name: user.name, email: user.email, isAdmin: user.isAdmin } };
};
