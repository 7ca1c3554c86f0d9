import { json } from '@sveltejs/kit';
import { ValidationError } from '$lib/server/errors';
import { api } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';
import * as training from '$lib/server/training';

const STATES = ['open', 'answered', 'all'] as const;

/** The members' threads, unanswered first (oldest wait first): `?state=open|answered|all` (default all). */
export const GET = api(async (event) => {
	await requireAdmin(event);
	const state = event.url.searchParams.get('state') ?? 'all';
	if (!(STATES as readonly string[]).includes(state))
		throw new ValidationError({ state: ['État : open, answered ou all.'] });
	const threads = await training.threadsForAdmins(state as (typeof STATES)[number]);
	return json({
		questions: threads.map((t) => ({
			id: t.id,
			member: { id: t.userId, name: t.memberName, email: t.memberEmail },
			module: t.moduleId,
			moduleTitle: t.moduleTitle,
			createdAt: t.createdAt,
			lastMessageAt: t.lastMessageAt,
			awaitingSince: t.awaitingSince,
			dueAt: t.dueAt,
			late: t.late,
			messages: t.messages
		}))
	});
});
