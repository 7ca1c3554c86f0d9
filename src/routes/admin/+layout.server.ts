import * as auth from '$lib/server/auth';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = async (event) => {
	const admin = await auth.requireAdmin(event);
	return { admin: { name: admin.name } };
};
