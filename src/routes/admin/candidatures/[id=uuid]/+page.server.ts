import { candidatureIdSchema, rejectionSchema } from '$lib/schemas/candidature';
import * as candidatures from '$lib/server/candidatures';
import { formFields, schemaAction } from '$lib/server/http/forms';
import { requireAdmin } from '$lib/server/http/guards';
import { orErrorPage } from '$lib/server/http/pages';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	const c = await orErrorPage(() => candidatures.find(event.params.id));
	return {
		candidature: {
			...c,
			createdAt: c.createdAt.toISOString(),
			decidedAt: c.decidedAt?.toISOString() ?? null,
			notifiedAt: c.notifiedAt?.toISOString() ?? null,
			consentAt: c.consentAt.toISOString()
		},
		// Shown with a copy button, so that an admin can send it by hand when the e-mail did not go.
		paymentLink: c.status === 'approved' ? candidatures.paymentLinkOf(c.id) : null
	};
};

const withReason = candidatureIdSchema.extend(rejectionSchema.shape);

export const actions: Actions = {
	approve: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), candidatureIdSchema, ['id'], async ({ id }) => ({
			approval: await candidatures.approve(id, admin)
		}));
	},
	reject: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), withReason, ['id'], async ({ id, reason }) => ({
			rejection: await candidatures.reject(id, admin, reason)
		}));
	},
	resend: async (event) => {
		const admin = await requireAdmin(event);
		return schemaAction(await formFields(event.request), candidatureIdSchema, ['id'], async ({ id }) => ({
			resent: await candidatures.resendNotification(id, admin)
		}));
	}
};
