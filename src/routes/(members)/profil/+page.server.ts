import { fail, redirect } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import {
	deleteAccountSchema,
	emailChangeSchema,
	nameChangeSchema,
	passwordChangeSchema,
	sessionHandleSchema
} from '$lib/schemas/auth';
import * as auth from '$lib/server/auth';
import { changeOrigin, requireUser } from '$lib/server/http/guards';
import { formFailure, formFields, schemaAction } from '$lib/server/http/forms';
import { signOut } from '$lib/server/http/session-cookie';
import * as memberships from '$lib/server/memberships';
import * as courses from '$lib/server/courses';
import { AppError, NotFoundError, ValidationError } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';

const THIS_SESSION = 'Pour cette session-ci, utilisez « Se déconnecter ».';

export const load: PageServerLoad = async (event) => {
	const user = requireUser(event);
	const { membership } = await memberships.accessOf(user);
	return {
		nameForm: await superValidate({ name: user.name }, zod4(nameChangeSchema), { id: 'name' }),
		passwordForm: await superValidate(zod4(passwordChangeSchema), { id: 'password' }),
		emailForm: await superValidate(zod4(emailChangeSchema), { id: 'email' }),
		deleteForm: await superValidate(zod4(deleteAccountSchema), { id: 'delete' }),
		// "Gérer mon abonnement" needs a Stripe customer (and payments on).
		canManageSubscription: memberships.paymentsOn() && !!membership?.stripeCustomerId,
		twoFactor: (await auth.twoFactorState(user.id)).enabled,
		reminders: (await courses.remindersOf(user.id)).on,
		sessions: (await auth.sessionsOf(user.id, event.locals.session?.id ?? null)).map((s) => ({
			...s,
			openedAt: s.openedAt.toISOString(),
			lastSeenAt: s.lastSeenAt.toISOString()
		}))
	};
};

export const actions: Actions = {
	/** « Reprenez là où vous en étiez »: on or off (the box unticked sends nothing). */
	reminders: async (event) => {
		const user = requireUser(event);
		const fields = await formFields(event.request);
		const on = fields.reminders === 'on';
		await courses.setReminders(user.id, on);
		return { remindersDone: on ? 'Rappels activés.' : 'Rappels désactivés : vous n’en recevrez plus.' };
	},
	name: async (event) => {
		const user = requireUser(event);
		const form = await superValidate(event.request, zod4(nameChangeSchema), { id: 'name' });
		if (!form.valid) return fail(400, { nameForm: form });
		await auth.updateName(user.id, form.data.name);
		message(form, { type: 'success', text: 'Votre nom a été mis à jour.' });
		return { nameForm: form };
	},
	password: async (event) => {
		const user = requireUser(event);
		const form = await superValidate(event.request, zod4(passwordChangeSchema), { id: 'password' });
		if (!form.valid) return fail(400, { passwordForm: form });
		try {
			await auth.changePassword(
				{
					userId: user.id,
					currentPassword: form.data.currentPassword,
					newPassword: form.data.newPassword
				},
				changeOrigin(event)
			);
		} catch (error) {
			form.data.currentPassword = '';
			form.data.newPassword = '';
			const failure = formFailure(event, form, error);
			return fail(failure.status, { passwordForm: failure.data.form });
		}
		form.data.currentPassword = '';
		form.data.newPassword = '';
		message(form, {
			type: 'success',
			text: 'Mot de passe modifié. Vos autres sessions ont été déconnectées.'
		});
		return { passwordForm: form };
	},
	/** A new address: a confirmation link goes to it; the account keeps the old one until it is followed. */
	email: async (event) => {
		const user = requireUser(event);
		const form = await superValidate(event.request, zod4(emailChangeSchema), { id: 'email' });
		if (!form.valid) return fail(400, { emailForm: form });
		try {
			await auth.requestEmailChange(
				{ userId: user.id, newEmail: form.data.newEmail, password: form.data.emailPassword },
				changeOrigin(event)
			);
		} catch (error) {
			form.data.emailPassword = '';
			const failure = formFailure(event, form, error);
			return fail(failure.status, { emailForm: failure.data.form });
		}
		form.data.emailPassword = '';
		message(form, {
			type: 'success',
			text: `Un lien de confirmation vient d’être envoyé à ${form.data.newEmail} (valable 24 heures). Votre adresse change quand vous le suivez.`
		});
		return { emailForm: form };
	},
	/** "Gérer mon abonnement": off to a Stripe Billing Portal session, which comes back here. */
	portal: async (event) => {
		const user = requireUser(event);
		let url: string;
		try {
			url = await memberships.billingPortalUrl(user.id, new URL('/profil', event.url).href);
		} catch (error) {
			if (error instanceof AppError) return fail(error.status, { portalError: error.message });
			throw error;
		}
		redirect(303, url);
	},
	/** Ends one of the member's other sessions (that browser is signed out at its next request). */
	endSession: async (event) => {
		const user = requireUser(event);
		const current = event.locals.session?.id;
		return schemaAction(
			await formFields(event.request),
			sessionHandleSchema,
			['handle'],
			async ({ handle }) => {
				if (current && auth.sessionHandleOf(current) === handle)
					throw new ValidationError({ handle: [THIS_SESSION] }, THIS_SESSION);
				if (!(await auth.endSession(user.id, handle)))
					throw new NotFoundError('Cette session est déjà terminée.');
				return { sessionsDone: 'Session déconnectée.' };
			}
		);
	},
	/** "Déconnecter toutes les autres sessions": every browser but this one. */
	endOtherSessions: async (event) => {
		const user = requireUser(event);
		await auth.endOtherSessions(user.id, event.locals.session!.id);
		return { sessionsDone: 'Vos autres sessions sont déconnectées.' };
	},
	/** RGPD: the account goes, the subscription first; the password confirms it. */
	delete: async (event) => {
		const user = requireUser(event);
		const form = await superValidate(event.request, zod4(deleteAccountSchema), { id: 'delete' });
		if (!form.valid) return fail(400, { deleteForm: form });
		try {
			await memberships.deleteAccount(
				{ userId: user.id, sessionId: event.locals.session!.id },
				form.data.password
			);
		} catch (error) {
			form.data.password = '';
			const failure = formFailure(event, form, error);
			return fail(failure.status, { deleteForm: failure.data.form });
		}
		await signOut(event);
		redirect(303, '/?compte=supprime');
	}
};
