import * as auth from '$lib/server/auth';
import { MAIL_PREVIEWS } from '$lib/server/mail';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	return {
		templates: MAIL_PREVIEWS.map(({ name, label, audience, render }) => ({
			name,
			label,
			audience,
			subject: render('light').subject
		}))
	};
};
