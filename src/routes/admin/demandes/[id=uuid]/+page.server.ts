import { redirect } from '@sveltejs/kit';
import { requireAdmin } from '$lib/server/http/guards';
import { orErrorPage } from '$lib/server/http/pages';
import * as leads from '$lib/server/leads';
import { leadActions } from '../lead-actions.server';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const lead = await orErrorPage(() => leads.find(event.params.id));
	return {
		lead: {
			...lead,
			createdAt: lead.createdAt.toISOString(),
			notifiedAt: lead.notifiedAt?.toISOString() ?? null
		}
	};
};

// The inbox's actions (guarded where they are written), but a deleted lead has no page left: back to the inbox.
export const actions: Actions = {
	...leadActions,
	delete: async (event) => {
		await requireAdmin(event);
		const result = await leadActions.delete(event);
		if ('done' in result) redirect(303, '/admin/demandes?onglet=toutes');
		return result;
	}
};
