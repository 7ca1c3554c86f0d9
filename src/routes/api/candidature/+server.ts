import { json } from '@sveltejs/kit';
import { candidatureSchema } from '$lib/schemas/candidature';
import * as candidatures from '$lib/server/candidatures';
import { api, readJson } from '$lib/server/http/api';

/** CONTRACT §3: the wizard's whole candidature, for machine clients; the same domain call as the wizard. */
export const POST = api(async (event) => {
	const input = await readJson(event, candidatureSchema);
	const result = await candidatures.submit(input, event.getClientAddress(), 'api');
	// Spam gets the same answer as anyone: nothing tells a bot what was noticed.
	return json({ id: result.id, status: result.status }, { status: 201 });
});
