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

// The inbox's actions (each spelled out with its guard, as tests/static/route-guards.test.ts reads them).
export const actions: Actions = {
	handled: async (event) => {
		await requireAdmin(event);
		return leadActions.handled(event);
	},
	unhandled: async (event) => {
		await requireAdmin(event);
		return leadActions.unhandled(event);
	},
	notSpam: async (event) => {
		await requireAdmin(event);
		return leadActions.notSpam(event);
	},
	resend: async (event) => {
		await requireAdmin(event);
		return leadActions.resend(event);
	},
	// A deleted lead has no page left: back to the inbox.
	delete: async (event) => {
		await requireAdmin(event);
		const result = await leadActions.delete(event);
		if ('done' in result) redirect(303, '/admin/demandes?onglet=toutes');
		return result;
	}
};
