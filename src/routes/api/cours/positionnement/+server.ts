import { json } from '@sveltejs/kit';
import { positioningAnswersSchema } from '$lib/schemas/training';
import * as courses from '$lib/server/courses';
import { ForbiddenError } from '$lib/server/errors';
import { api, readJson } from '$lib/server/http/api';
import { requireUser } from '$lib/server/http/guards';
import * as memberships from '$lib/server/memberships';

/** The positioning's answers, once: 201; 409 after; 404 when the course asks none. */
export const POST = api(async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) throw new ForbiddenError('Votre accès aux cours n’est pas ouvert.');
	const { answers } = await readJson(event, positioningAnswersSchema);
	await courses.answerPositioning(user.id, answers);
	return json({ ok: true }, { status: 201 });
});
