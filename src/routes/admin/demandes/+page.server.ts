import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { db } from '$lib/server/db';
import { leadIdSchema } from '$lib/schemas/leads';
import { formFields, schemaAction } from '$lib/server/http/forms';
import * as leads from '$lib/server/leads';
import { filtersFrom } from '$lib/server/leads/filters';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	const filters = filtersFrom(event.url.searchParams);
	const [list, retention] = await Promise.all([leads.listLeads(db, filters), leads.lastRetentionRun(db)]);
	return {
		leads: list.map((l) => ({
			...l,
			createdAt: l.createdAt.toISOString(),
			notifiedAt: l.notifiedAt?.toISOString() ?? null
		})),
		query: event.url.search,
		filters: Object.fromEntries(event.url.searchParams),
		retention: retention ? { at: retention.at.toISOString(), detail: retention.detail } : null,
		retentionDays: config.leadsRetentionDays
	};
};

/** Runs one inbox action on the lead named by the form's `id`, and says what happened in French. */
async function act(event: Parameters<Actions[string]>[0], run: (id: string) => Promise<string>) {
	return schemaAction(await formFields(event.request), leadIdSchema, ['id'], async ({ id }) => ({
		done: await run(id)
	}));
}

export const actions: Actions = {
	handled: async (event) => {
		await auth.requireAdmin(event);
		return act(event, async (id) => (await leads.setHandled(db, id, true), 'Demande marquée comme traitée.'));
	},
	unhandled: async (event) => {
		await auth.requireAdmin(event);
		return act(
			event,
			async (id) => (await leads.setHandled(db, id, false), 'Demande marquée comme à traiter.')
		);
	},
	notSpam: async (event) => {
		await auth.requireAdmin(event);
		return act(event, async (id) =>
			(await leads.markNotSpam(leads.leadDeps(), id))
				? 'Ce n’est pas un spam : la notification a été envoyée.'
				: 'Ce n’est pas un spam, mais la notification a échoué.'
		);
	},
	resend: async (event) => {
		await auth.requireAdmin(event);
		return act(event, async (id) =>
			(await leads.resendNotification(leads.leadDeps(), id))
				? 'Notification renvoyée.'
				: 'La notification a encore échoué.'
		);
	},
	delete: async (event) => {
		await auth.requireAdmin(event);
		return act(event, async (id) => (await leads.deleteLead(db, id), 'Demande supprimée définitivement.'));
	}
};
