import { json } from '@sveltejs/kit';
import { satisfactionSchema } from '$lib/schemas/training';
import { api, readJson } from '$lib/server/http/api';
import * as training from '$lib/server/training';

/** The cold survey as JSON (`{ ratings, comment? }`): 201 once; 410 used or expired; 404 not a link of ours. */
export const POST = api(async (event) => {
	const answer = await readJson(event, satisfactionSchema);
	await training.answerCold(event.params.token!, answer, event.getClientAddress());
	return json({ ok: true }, { status: 201 });
});
