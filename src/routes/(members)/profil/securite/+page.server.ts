import { fail } from '@sveltejs/kit';
import { renderSVG } from 'uqr';
import { secondFactorSchema } from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { AppError } from '$lib/server/errors';
import { requireUser } from '$lib/server/http/guards';
import { formFields, schemaAction } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const [state, pending] = await Promise.all([auth.twoFactorState(user.id), auth.pendingTwoFactor(user)]);
	return {
		enabled: state.enabled,
		since: state.since?.toISOString() ?? null,
		recoveryCodesLeft: state.recoveryCodesLeft,
		required: auth.mustEnrol(user),
		// The QR code is drawn here, as SVG from the otpauth:// URI: no third-party service sees the key.
		enrolment: pending && { qrSvg: renderSVG(pending.uri, { border: 2 }), typedKey: pending.typedKey }
	};
};

export const actions: Actions = {
	start: async (event) => {
		const user = requireUser(event);
		try {
			await auth.startTwoFactor(user);
		} catch (error) {
			if (error instanceof AppError) return fail(error.status, { error: error.message });
			throw error;
		}
		return { started: true };
	},
	confirm: async (event) => {
		const user = requireUser(event);
		return schemaAction(await formFields(event.request), secondFactorSchema, [], async ({ code }) => ({
			// Shown once, on the answer to this form; only their hashes are kept.
			recoveryCodes: await auth.confirmTwoFactor(user.id, code)
		}));
	},
	disable: async (event) => {
		const user = requireUser(event);
		return schemaAction(await formFields(event.request), secondFactorSchema, [], async ({ code }) => {
			await auth.disableTwoFactor(user.id, code);
			return { disabled: 'La double authentification est désactivée : le mot de passe suffit de nouveau.' };
		});
	}
};
