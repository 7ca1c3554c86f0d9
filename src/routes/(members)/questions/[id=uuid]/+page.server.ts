import { requireUser } from '$lib/server/http/guards';
import { replyAction, threadPage } from '$lib/server/http/question-thread';
import type { Actions, PageServerLoad } from './$types';

/** A thread of the member's (404 for another's): read it, write the next message. */
export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	return { thread: await threadPage(event.params.id, user) };
};

export const actions: Actions = {
	reply: async (event) => {
		const user = requireUser(event);
		return replyAction(event, event.params.id, user);
	}
};
