import { fail } from '@sveltejs/kit';
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { setPasswordSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { enterWithProof } from '$lib/server/http/session-cookie';
import type { Actions, PageServerLoad } from './$types';

/** Checked in the browser before it is sent: SvelteKit's client runs here (a page reached from an e-mail). */
export const csr = true;

/** A single-use link (welcome or reset): a used or expired one says so and offers a new link. */
export const load: PageServerLoad = async ({ params }) => ({
	state: await auth.passwordLinkState(params.token),
	form: await superValidate(zod4(setPasswordSchema))
});

export const actions: Actions = {
	default: async (event) => {
		const form = await superValidate(event.request, zod4(setPasswordSchema));
		if (!form.valid) return fail(400, { form });
		const proved = () =>
			auth.setPasswordWithLink(event.params.token, form.data.password, {
				userAgent: event.request.headers.get('user-agent'),
				address: event.getClientAddress()
			});
		// Every earlier session, pending sign-in and known browser ended with the reset. The link proves the
		// mailbox, not the second factor: an account with one enters its code before any session opens.
		return enterWithProof(event, form, proved);
	}
};
