import { json } from '@sveltejs/kit';
import { api } from '$lib/server/http/api';
import { requireUser } from '$lib/server/http/guards';
import * as training from '$lib/server/training';

/** A thread, for its member or an admin (404 for anyone else): `{ id, module, messages: [{ from, text, at }] }`. */
export const GET = api(async (event) => {
	const user = requireUser(event);
	const thread = await training.thread(event.params.id!, user);
	return json({
		id: thread.id,
		module: thread.moduleId,
		moduleTitle: thread.module,
		awaitingSince: thread.awaitingSince,
		dueAt: thread.dueAt,
		messages: thread.messages.map((m) => ({
			from: m.from,
			text: m.text,
			at: m.at,
			attachment: m.attachment ? { name: m.attachment.name, url: `/questions/pieces/${m.id}` } : null
		}))
	});
});
