/**
 * The load and action behind /contact and /devis: the same schema and domain call as the JSON API. The page's
 * form posts here with or without JavaScript (superforms' `enhance` in ContactForm/DevisForm).
 */
import { fail, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4, type ValidationAdapter } from 'sveltekit-superforms/adapters';
import { LEAD_RECEIVED } from '$lib/messages';
import { contactSchema, devisSchema, type ContactInput, type DevisInput } from '$lib/schemas/leads';
import { formFailure } from '$lib/server/http/forms';
import * as insights from '$lib/server/insights';
import * as leads from '$lib/server/leads';

/** One kind's load and action, typed by its own schema (each page gets its own form's type, with no cast). */
function leadForm<T extends ContactInput | DevisInput>(
	kind: leads.LeadKind,
	adapter: ValidationAdapter<T>,
	initial: Partial<T> = {}
) {
	/** An empty form with a token of its own: the time trap starts now, and the token is good for one lead. */
	const blankForm = async () => {
		const form = await superValidate(adapter);
		Object.assign(form.data, initial);
		form.data.formToken = leads.newFormToken();
		return form;
	};
	return {
		// Issued per request (these pages are not in the page cache).
		load: async () => ({ form: await blankForm() }),
		async action(event: RequestEvent) {
			const form = await superValidate(event.request, adapter);
			if (!form.valid) return fail(400, { form });
			try {
				const address = event.getClientAddress();
				await leads.submit(kind, form.data, address, 'page', await insights.originOf(event.request, address));
			} catch (error) {
				return formFailure(event, form, error);
			}
			// The token is spent: the form comes back empty with a fresh one, so a second request from the same
			// page (with or without JavaScript) is not taken for a replay. A blank form is not "valid" to superforms,
			// which would then answer 400: the request succeeded, so say 200.
			return message(
				await blankForm(),
				{ type: 'success', text: LEAD_RECEIVED },
				{
					// superforms types this option for failures only.
					status: 200 as 400
				}
			);
		}
	};
}

export const contactForm = leadForm('contact', zod4(contactSchema));
// No project type chosen in advance (a schema's enum would default to its first value): the visitor picks one.
export const devisForm = leadForm('devis', zod4(devisSchema), { projectType: '' });
