import { userIdSchema, usersQuerySchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { ADMIN_ACTIONS, type AdminActionName } from '$lib/server/http/admin-actions';
import { deferUntilConfirmed, isRecentlyConfirmed } from '$lib/server/http/reauthentication';
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
 * The actions on another account: each wants this session to have re-authenticated in the last ten minutes — else
 * it is kept, the admin confirms on /admin/confirmer, and it is carried out there — and each is in the audit trail
 * (its domain function writes it). The actions themselves are in http/admin-actions.ts.
 */
async function onAccount(event: RequestEvent, admin: auth.SessionUser, name: AdminActionName) {
	// The body is read before a redirect to the confirmation: never leave it unread on a kept-alive connection.
	const fields = await formFields(event.request);
	return schemaAction(fields, userIdSchema, ['id'], async ({ id }) => {
		if (!isRecentlyConfirmed(event)) deferUntilConfirmed(event, name, id);
		const origin = { userAgent: event.request.headers.get('user-agent'), address: event.getClientAddress() };
		return { done: (await ADMIN_ACTIONS[name](admin, id, origin)).done };
	});
}

export const actions: Actions = {
	grantAdmin: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, admin, 'grantAdmin');
	},
	revokeAdmin: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, admin, 'revokeAdmin');
	},
	removeSecondFactor: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, admin, 'removeSecondFactor');
	},
	delete: async (event) => {
		const admin = await requireAdmin(event);
		return onAccount(event, admin, 'delete');
	}
};
