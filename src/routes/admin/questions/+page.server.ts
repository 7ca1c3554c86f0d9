import { requireAdmin } from '$lib/server/http/guards';
import * as courses from '$lib/server/courses';
import * as training from '$lib/server/training';
import type { PageServerLoad } from './$types';

type State = 'open' | 'answered' | 'all';

/** The members' questions: unanswered first (oldest wait first), those past the promised delay marked. */
export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const asked = event.url.searchParams.get('etat');
	const state: State = asked === 'repondues' ? 'answered' : asked === 'toutes' ? 'all' : 'open';
	const [threads, settings] = await Promise.all([training.threadsForAdmins(state), courses.settings()]);
	return {
		state,
		answerDelayDays: settings.answerDelayDays,
		threads: threads.map((t) => ({
			id: t.id,
			member: t.memberName,
			email: t.memberEmail,
			module: t.moduleTitle,
			awaitingSince: t.awaitingSince?.toISOString() ?? null,
			lastMessageAt: t.lastMessageAt.toISOString(),
			dueAt: t.dueAt?.toISOString() ?? null,
			late: t.late,
			messages: t.messages
		}))
	};
};
