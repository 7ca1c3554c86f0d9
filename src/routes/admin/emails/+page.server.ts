import { requireAdmin } from '$lib/server/http/guards';
import * as emails from '$lib/server/mail/previews';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async (event) => {
	await requireAdmin(event);
	return {
		templates: emails.previews.map(({ name, label, audience, render }) => ({
			name,
			label,
			audience,
			subject: render('light').subject
		}))
	};
};
