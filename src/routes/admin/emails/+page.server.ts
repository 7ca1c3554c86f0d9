import * as auth from '$lib/server/auth';
import * as emails from '$lib/server/emails';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await auth.requireAdmin(event);
	return {
		templates: emails.previews.map(({ name, label, audience, render }) => ({
			name,
			label,
			audience,
			subject: render('light').subject
		}))
	};
};
