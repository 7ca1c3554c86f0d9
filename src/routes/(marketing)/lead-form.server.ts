/** The load and action behind /contact and /devis: the same schema and domain call as the JSON API. */
import { fail, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { LEAD_RECEIVED_MESSAGE, contactSchema, devisSchema } from '$lib/schemas/leads';
import { formFailure } from '$lib/server/http/forms';
import * as leads from '$lib/server/leads';

const schemaOf = (kind: leads.LeadKind) => (kind === 'contact' ? contactSchema : devisSchema);

export async function leadFormLoad(kind: leads.LeadKind) {
	const form = await superValidate(zod4(schemaOf(kind) as typeof contactSchema));
	// Issued per request (these pages are not in the page cache): the time trap starts now.
	form.data.formToken = leads.newFormToken();
	return { form };
}

export async function leadFormAction(kind: leads.LeadKind, event: RequestEvent) {
	const form = await superValidate(event.request, zod4(schemaOf(kind) as typeof contactSchema));
	if (!form.valid) return fail(400, { form });
	try {
		await leads.submit(kind, form.data, event.getClientAddress(), 'page');
	} catch (error) {
		return formFailure(event, form, error);
	}
	return message(form, { type: 'success', text: LEAD_RECEIVED_MESSAGE });
}
