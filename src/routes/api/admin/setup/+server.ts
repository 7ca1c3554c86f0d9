import { json } from '@sveltejs/kit';
import { setupAdminSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { api, readJson } from '$lib/server/http/api';

// Public while no admin exists (SEED.md part 4): the one admin API route without requireAdmin.
export const POST = api(async (event) => {
	const input = await readJson(event, setupAdminSchema);
	const { user } = await auth.setupFirstAdmin(input, event.getClientAddress());
	return json({ id: user.id, email: user.email }, { status: 201 });
});
