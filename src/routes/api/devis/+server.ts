import { json } from '@sveltejs/kit';
import { devisSchema } from '$lib/schemas/leads';
import { api, readJson } from '$lib/server/http/api';
import * as leads from '$lib/server/leads';

export const POST = api(async (event) => {
	const input = await readJson(event, devisSchema);
	const result = await leads.submitLead(leads.leadDeps(), 'devis', input, event.getClientAddress(), 'api');
	// Spam and duplicates get the same answer as anyone: nothing tells a bot what was noticed. The e-mails
	// follow in the background (result.notified): the answer never waits for SMTP.
	return json({ id: result.id }, { status: 201 });
});
