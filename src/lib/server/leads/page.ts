/** The load and action behind /contact and /devis: same domain function as the JSON API. */
import { fail, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4, type ValidationAdapter } from 'sveltekit-superforms/adapters';
import { LEAD_RECEIVED } from '$lib/messages';
import { contactSchema, devisSchema, type ContactInput, type DevisInput } from '$lib/schemas/leads';
import { config } from '../config';
import { formFailure } from '../http/forms';
import { issueFormToken } from './form-token';
import { leadDeps } from './index';
import { submitLead, type LeadKind } from './service';

/** One kind's load and action, typed by its own schema (each page gets its own form's type, with no cast). */
function leadForm<T extends ContactInput | DevisInput>(kind: LeadKind, adapter: ValidationAdapter<T>) {
	return {
		async load() {
			const form = await superValidate(adapter);
			// Issued per request (these pages are not in the page cache): the time trap starts now.
			form.data.formToken = issueFormToken(config.signingSecret);
			return { form };
		},
		async action(event: RequestEvent) {
			const form = await superValidate(event.request, adapter);
			if (!form.valid) return fail(400, { form });
			try {
				await submitLead(leadDeps(), kind, form.data, event.getClientAddress());
			} catch (error) {
				return formFailure(event, form, error);
			}
			return message(form, { type: 'success', text: LEAD_RECEIVED });
		}
	};
}

export const contactForm = leadForm('contact', zod4(contactSchema));
export const devisForm = leadForm('devis', zod4(devisSchema));
