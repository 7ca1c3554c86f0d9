import { requireAdmin } from '$lib/server/http/guards';
import { replyAction, threadPage } from '$lib/server/http/question-thread';
import type { Actions, PageServerLoad } from './$types';

/** A member's thread, for the trainer: read it, answer it (the member is told by e-mail). */
export const load: PageServerLoad = async (event) => {
	const admin = await requireAdmin(event);
	return { thread: await threadPage(event.params.id, admin) };
};

export const actions: Actions = {
	reply: async (event) => {
		const admin = await requireAdmin(event);
		return replyAction(event, event.params.id, admin);
	}
};
