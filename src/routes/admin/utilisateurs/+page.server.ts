import { usersQuerySchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { requireAdmin } from '$lib/server/http/guards';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const query = usersQuerySchema.parse(Object.fromEntries(event.url.searchParams));
	const list = await auth.listUsers({ search: query.q || undefined, role: query.role }, query.page ?? 1);
	return {
		query,
		users: list.users.map((u) => ({
			...u,
			createdAt: u.createdAt.toISOString(),
			lastSignInAt: u.lastSignInAt?.toISOString() ?? null
		})),
		pagination: { total: list.total, page: list.page, pages: list.pages, pageSize: list.pageSize }
	};
};
