/**
 * The actions on one lead, shared by the inbox and a lead's page: each a one-field form naming the lead, its
 * answer shown beside it (schemaAction echoes the id).
 */
import type { RequestEvent } from '@sveltejs/kit';
import { leadIdSchema } from '$lib/schemas/leads';
import { requireAdmin } from '$lib/server/http/guards';
import { formFields, schemaAction } from '$lib/server/http/forms';
import * as leads from '$lib/server/leads';

/** Runs one inbox action on the lead the form names, and says what happened in French. */
async function act(event: RequestEvent, run: (id: string) => Promise<string>) {
	return schemaAction(await formFields(event.request), leadIdSchema, ['id'], async ({ id }) => ({
		done: await run(id)
	}));
}

export const leadActions = {
	handled: async (event: RequestEvent) => {
		const admin = await requireAdmin(event);
		return act(event, async (id) => {
			await leads.setHandled(id, true, admin);
			return 'Demande marquée comme traitée.';
		});
	},
	unhandled: async (event: RequestEvent) => {
		const admin = await requireAdmin(event);
		return act(event, async (id) => {
			await leads.setHandled(id, false, admin);
			return 'Demande marquée comme à traiter.';
		});
	},
	notSpam: async (event: RequestEvent) => {
		const admin = await requireAdmin(event);
		return act(event, async (id) =>
			(await leads.markNotSpam(id, admin))
				? 'Ce n’est pas un spam : la notification a été envoyée.'
				: 'Ce n’est pas un spam, mais la notification a échoué.'
		);
	},
	resend: async (event: RequestEvent) => {
		const admin = await requireAdmin(event);
		return act(event, async (id) =>
			(await leads.resendNotification(id, admin))
				? 'Notification renvoyée.'
				: 'La notification a encore échoué.'
		);
	},
	delete: async (event: RequestEvent) => {
		const admin = await requireAdmin(event);
		return act(event, async (id) => {
			await leads.remove(id, admin);
			return 'Demande supprimée définitivement.';
		});
	}
};
