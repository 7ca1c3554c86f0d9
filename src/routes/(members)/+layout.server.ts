import { requireUser } from '$lib/server/http/guards';
import type { LayoutServerLoad } from './$types';

/** The members' area is an application (completion without a reload, the profile's forms): the client runs. */
export const csr = true;

export const load: LayoutServerLoad = (event) => {
	const user = requireUser(event);
	return { member: { name: user.name, email: user.email, isAdmin: user.isAdmin } };
};
