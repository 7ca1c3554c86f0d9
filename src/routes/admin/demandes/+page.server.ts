import { leadFiltersQuerySchema, leadIdSchema } from '$lib/schemas/leads';
import { requireAdmin } from '$lib/server/http/guards';
import { formFields, schemaAction } from '$lib/server/http/forms';
import * as leads from '$lib/server/leads';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const query = leadFiltersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const [list, retention] = await Promise.all([leads.list(leads.filtersOf(query)), leads.lastRetentionRun()]);
	return {
		leads: list.map((l) => ({
			...l,
			createdAt: l.createdAt.toISOString(),
			notifiedAt: l.notifiedAt?.toISOString() ?? null
		})),
		query: event.url.search,
		filters: query,
		retention: retention ? { at: retention.at.toISOString(), detail: retention.detail } : null,
		retentionDays: leads.retentionDays()
	};
};

/** Runs one inbox action on the lead the form names, and says what happened in French. */
async function act(event: Parameters<Actions[string]>[0], run: (id: string) => Promise<string>) {
	return schemaAction(await formFields(event.request), leadIdSchema, ['id'], async ({ id }) => ({
		done: await run(id)
	}));
}

export const actions: Actions = {
	handled: async (event) => {
		await requireAdmin(event);
		return act(event, async (id) => {
			await leads.setHandled(id, true);
			return 'Demande marquée comme traitée.';
		});
	},
	unhandled: async (event) => {
		await requireAdmin(event);
		return act(event, async (id) => {
			await leads.setHandled(id, false);
			return 'Demande marquée comme à traiter.';
		});
	},
	notSpam: async (event) => {
		await requireAdmin(event);
		return act(event, async (id) =>
			(await leads.markNotSpam(id))
				? 'Ce n’est pas un spam : la notification a été envoyée.'
				: 'Ce n’est pas un spam, mais la notification a échoué.'
		);
	},
	resend: async (event) => {
		await requireAdmin(event);
		return act(event, async (id) =>
			(await leads.resendNotification(id)) ? 'Notification renvoyée.' : 'La notification a encore échoué.'
		);
	},
	delete: async (event) => {
		await requireAdmin(event);
		return act(event, async (id) => {
			await leads.remove(id);
			return 'Demande supprimée définitivement.';
		});
	}
};
