import { json } from '@sveltejs/kit';
import { satisfactionSchema } from '$lib/schemas/training';
import { ForbiddenError } from '$lib/server/errors';
import { api, readJson } from '$lib/server/http/api';
import { requireUser } from '$lib/server/http/guards';
import * as memberships from '$lib/server/memberships';
import * as training from '$lib/server/training';

/** The end-of-course survey: `{ ratings: [5 × 1–5], comment? }` or `{ skip: true }`; 201 once, 409 after. */
export const POST = api(async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) throw new ForbiddenError('Votre accès aux cours n’est pas ouvert.');
	const answer = await readJson(event, satisfactionSchema);
	await training.answerHot(user.id, answer);
	return json({ ok: true }, { status: 201 });
});
