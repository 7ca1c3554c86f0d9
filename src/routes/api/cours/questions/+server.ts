import { json } from '@sveltejs/kit';
import { questionCreateSchema } from '$lib/schemas/training';
import { ForbiddenError } from '$lib/server/errors';
import { api, readJson } from '$lib/server/http/api';
import { requireUser } from '$lib/server/http/guards';
import * as memberships from '$lib/server/memberships';
import * as training from '$lib/server/training';

/** A member's question to the trainer about a module (its id or slug): 201 `{ id }`; 20 a day, then 429. */
export const POST = api(async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) throw new ForbiddenError('Votre accès aux cours n’est pas ouvert.');
	const { module, text } = await readJson(event, questionCreateSchema);
	return json(await training.ask(user, module, text), { status: 201 });
});
