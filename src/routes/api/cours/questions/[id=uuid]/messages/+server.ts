import { json } from '@sveltejs/kit';
import { questionMessageSchema } from '$lib/schemas/training';
import { api, readJson } from '$lib/server/http/api';
import { requireUser } from '$lib/server/http/guards';
import * as training from '$lib/server/training';

/** A message in a thread: the member on their own, an admin (as the trainer) on any; 404 for anyone else. */
export const POST = api(async (event) => {
	const user = requireUser(event);
	const { text } = await readJson(event, questionMessageSchema);
	await training.reply(event.params.id!, user, text);
	return json({ ok: true }, { status: 201 });
});
