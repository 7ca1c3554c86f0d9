import { requireAdmin } from '$lib/server/http/guards';
import * as leads from '$lib/server/leads';
import type { LayoutServerLoad } from './$types';

export const load: LayoutServerLoad = async (event) => {
	const admin = await requireAdmin(event);
	return { admin: { name: admin.name }, failedNotifications: await leads.countFailedNotifications() };
};
