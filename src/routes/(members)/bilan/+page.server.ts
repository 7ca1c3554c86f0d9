import { requireUser } from '$lib/server/http/guards';
import * as courses from '$lib/server/courses';
import * as memberships from '$lib/server/memberships';
import type { PageServerLoad } from './$types';

/** The course's end (issue « Experience, part 2 », point 3): what was done, what is left, what comes next. */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [{ access }, progress, attestation] = await Promise.all([
		memberships.accessOf(user),
		courses.progressOf(user.id),
		courses.attestationState(user.id)
	]);
	const done = progress.modules.filter((m) => m.completed);
	return {
		allowed: access.allowed,
		attestation: {
			available: attestation.available,
			code: attestation.issued?.code ?? null,
			revoked: attestation.issued?.revokedAt ? (attestation.issued.revokedReason ?? '') : null
		},
		finished: progress.total > 0 && progress.completed === progress.total,
		done: done.map((m) => ({ slug: m.slug, title: m.title, durationMinutes: m.durationMinutes })),
		minutes: done.reduce((sum, m) => sum + m.durationMinutes, 0),
		left: progress.total - progress.completed,
		next: progress.next ? { slug: progress.next.slug, title: progress.next.title } : null
	};
};
