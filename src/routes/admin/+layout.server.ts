import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import type { LayoutServerLoad } from './$types';

/** The admin is an application: SvelteKit's client, for live previews, uploads and actions without a reload. */
export const csr = true;

export const load: LayoutServerLoad = async (event) => {
	const admin = await requireAdmin(event);
	return { admin: { name: admin.name }, failedNotifications: await leads.countFailedNotifications() };
};
