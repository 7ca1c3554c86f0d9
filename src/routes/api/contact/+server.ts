import { json } from '@sveltejs/kit';
import { contactSchema, showcaseContactSchema } from '$lib/schemas/leads';
import { api, readJson } from '$lib/server/http/api';
import * as leads from '$lib/server/leads';
import * as showcase from '$lib/server/showcase';

/**
 * CONTRACT §3: the agency's audit request in platform mode. In showcase mode the business's site has only one
 * form, the quote request: this route then takes the same contact body (the quote's own fields optional) and
 * sends the quote-request e-mail.
 */
export const POST = api(async (event) => {
	const address = event.getClientAddress();
	const result = showcase.isActive()
		? await leads.submit('devis', await readJson(event, showcaseContactSchema), address, 'api')
		: await leads.submit('contact', await readJson(event, contactSchema), address, 'api');
	// Spam and duplicates get the same answer as anyone: nothing tells a bot what was noticed.
	return json({ id: result.id }, { status: 201 });
});
