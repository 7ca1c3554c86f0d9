import { z } from 'zod';
import * as courses from '$lib/server/courses';
import { ForbiddenError, ValidationError } from '$lib/server/errors';
import { api } from '$lib/server/http/api';
import { requireUser } from '$lib/server/http/guards';
import * as memberships from '$lib/server/memberships';

const positionSchema = z.object({
	seconds: z.coerce
		.number({ error: 'Indiquez une position en secondes.' })
		.finite('Indiquez une position en secondes.')
		.min(0, 'Position positive.')
		.max(100_000, 'Position trop grande.')
});

/**
 * Where the member is in the module's video: sent every few seconds while it plays and when the page is left
 * (`navigator.sendBeacon`, a form body), so the next visit resumes there. 204.
 */
export const POST = api(async (event) => {
	const user = requireUser(event);
	const { access } = await memberships.accessOf(user);
	if (!access.allowed) throw new ForbiddenError('Votre accès aux cours n’est pas ouvert.');
	const form = await event.request.formData().catch(() => null);
	const parsed = positionSchema.safeParse({ seconds: form?.get('seconds') ?? undefined });
	if (!parsed.success) throw new ValidationError({ seconds: ['Indiquez une position en secondes.'] });
	await courses.saveVideoPosition(user, event.params.slug!, parsed.data.seconds);
	return new Response(null, { status: 204 });
});
