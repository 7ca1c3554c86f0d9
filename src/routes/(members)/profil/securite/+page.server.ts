import { fail, redirect } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { renderSVG } from 'uqr';
import { secondFactorSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { AppError } from '$lib/server/errors';
import { changeOrigin, requireUser } from '$lib/server/http/guards';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [state, pending] = await Promise.all([auth.twoFactorState(user.id), auth.pendingTwoFactor(user)]);
	return {
		enabled: state.enabled,
		since: state.since?.toISOString() ?? null,
		recoveryCodesLeft: state.recoveryCodesLeft,
		required: auth.mustEnrol(user),
		// The QR code is drawn here, as SVG from the otpauth:// URI: no third-party service sees the key. On a phone,
		// the QR code is on the screen that should scan it: the URI is also a link that opens the app.
		enrolment: pending && {
			qrSvg: renderSVG(pending.uri, { border: 2 }),
			typedKey: pending.typedKey,
			uri: pending.uri
		},
		confirmForm: await superValidate(zod4(secondFactorSchema), { id: 'confirm' }),
		// One code field for both actions on an active factor (new recovery codes, or turning it off).
		manageForm: await superValidate(zod4(secondFactorSchema), { id: 'manage' })
	};
};

type CodeFormId = 'confirm' | 'manage';

/**
 * Reads a code form and runs its task: the form (code emptied) and the task's result, or the failure to return —
 * a wrong code shown once, under the field.
 */
async function withCode<R>(
	event: Parameters<Actions[string]>[0],
	id: CodeFormId,
	task: (code: string) => Promise<R>
) {
	const form = await superValidate(event.request, zod4(secondFactorSchema), { id });
	if (!form.valid) return { form, failure: fail(400, { form }) };
	try {
		const result = await task(form.data.code);
		form.data.code = '';
		return { form, result };
	} catch (error) {
		form.data.code = '';
		const failure = formFailure(event, form, error);
		return { form, failure: fail(failure.status, { form: failure.data.form }) };
	}
}

export const actions: Actions = {
	start: async (event) => {
		const user = requireUser(event);
		try {
			await auth.startTwoFactor(user);
		} catch (error) {
			if (error instanceof AppError) return fail(error.status, { startError: error.message });
			throw error;
		}
		// The key and its QR code are kept server-side until confirmed: the page shows them at its own clean URL
		// (not `?/start`, where a reload would post again and the address bar would say an action).
		redirect(303, event.url.pathname);
	},
	confirm: async (event) => {
		const user = requireUser(event);
		const done = await withCode(event, 'confirm', (code) =>
			auth.confirmTwoFactor(user, changeOrigin(event), code)
		);
		if ('failure' in done) return done.failure;
		// The recovery codes are shown once, on the answer to this form; only their hashes are kept.
		return { form: done.form, recoveryCodes: done.result };
	},
	disable: async (event) => {
		const user = requireUser(event);
		const done = await withCode(event, 'manage', (code) =>
			auth.disableTwoFactor(user, changeOrigin(event), code)
		);
		if ('failure' in done) return done.failure;
		message(done.form, { type: 'success', text: 'La double authentification est désactivée.' });
		return { form: done.form, disabled: true };
	},
	/** « Générer de nouveaux codes »: a code proves it is the owner; the ten new codes void the old ones. */
	renew: async (event) => {
		const user = requireUser(event);
		const done = await withCode(event, 'manage', (code) =>
			auth.regenerateRecoveryCodes(user, changeOrigin(event), code)
		);
		if ('failure' in done) return done.failure;
		return { form: done.form, recoveryCodes: done.result, renewed: true };
	}
};
