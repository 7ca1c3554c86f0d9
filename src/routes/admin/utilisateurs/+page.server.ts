import { userIdSchema, usersQuerySchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { requireRecentAuthentication } from '$lib/server/http/reauthentication';
import * as memberships from '$lib/server/memberships';
import type { RequestEvent } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const admin = await requireAdmin(event);
	const query = usersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const list = await auth.listUsers({ search: query.q || undefined, role: query.role }, query.page ?? 1);
	return {
		query,
		selfId: admin.id,
		users: list.users.map(({ twoFactorSince, ...u }) => ({
			...u,
			twoFactor: twoFactorSince !== null,
			createdAt: u.createdAt.toISOString(),
			lastSignInAt: u.lastSignInAt?.toISOString() ?? null
		})),
		pagination: { total: list.total, page: list.page, pages: list.pages, pageSize: list.pageSize }
	};
};

/**
 * The actions on another account: each wants this session to have re-authenticated in the last ten minutes
 * (else /admin/confirmer, then back here), and each is in the audit trail (its domain function writes it).
 */
async function onAccount(event: RequestEvent, task: (id: string) => Promise<string>) {
	// The body is read before a redirect to the confirmation: never leave it unread on a kept-alive connection.
	const fields = await formFields(event.request);
	requireRecentAuthentication(event);
	return schemaAction(fields, userIdSchema, ['id'], async ({ id }) => ({ done: await task(id) }));
}

export const actions: Actions = {
	grantAdmin: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, async (id) =>
			(await auth.setAdminRole(id, true, admin))
				? 'Ce compte est maintenant administrateur.'
				: 'Déjà administrateur.'
		);
	},
	revokeAdmin: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, async (id) =>
			(await auth.setAdminRole(id, false, admin))
				? 'Ce compte n’est plus administrateur.'
				: 'Ce compte n’était pas administrateur.'
		);
	},
	removeSecondFactor: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, async (id) =>
			(await auth.removeSecondFactorOf(id, admin))
				? 'Double authentification retirée : ce compte se connecte de nouveau avec son seul mot de passe.'
				: 'Ce compte n’avait pas de double authentification.'
		);
	},
	delete: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, async (id) => {
			await memberships.deleteAccountAsAdmin(id, admin);
			return 'Compte supprimé (abonnement résilié s’il était en cours, candidature anonymisée).';
		});
	}
};
