/** The load and action behind /contact and /devis: same domain function as the JSON API. */
import { fail, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { LEAD_RECEIVED_MESSAGE, contactSchema, devisSchema } from '$lib/schemas/leads';
import { config } from '../config';
import { formFailure } from '../http/forms';
import { issueFormToken } from './form-token';
import { leadDeps } from './index';
import { submitLead, type LeadKind } from './service';

const schemaOf = (kind: LeadKind) => (kind === 'contact' ? contactSchema : devisSchema);

export async function leadFormLoad(kind: LeadKind) {
	const form = await superValidate(zod4(schemaOf(kind) as typeof contactSchema));
	// Issued per request (these pages are not in the page cache): the time trap starts now.
	form.data.formToken = issueFormToken(config.signingSecret);
	return { form };
}

export async function leadFormAction(kind: LeadKind, event: RequestEvent) {
	const form = await superValidate(event.request, zod4(schemaOf(kind) as typeof contactSchema));
	if (!form.valid) return fail(400, { form });
	try {
		await submitLead(leadDeps(), kind, form.data, event.getClientAddress(), 'page');
	} catch (error) {
		return formFailure(event, form, error);
	}
	// The token just used is spent: a next request from this page needs a new one.
	form.data.formToken = issueFormToken(config.signingSecret);
	return message(form, {
		type: 'success',
		text: LEAD_RECEIVED_MESSAGE
	});
}
