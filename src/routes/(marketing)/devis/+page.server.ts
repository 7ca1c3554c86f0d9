import { demoSite } from '$lib/content/pages';
import * as content from '$lib/server/content';
import { devisForm } from '../lead-form.server';
import type { Actions, PageServerLoad } from './$types';

/** The maçon demo's quote form: its own words (the `devis` entry) and the demo's name and number. */
export const load: PageServerLoad = async ({ url, locals, setHeaders }) => {
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	const [form, page, macon] = await Promise.all([
		devisForm.load(),
		content.page('devis', preview),
		content.page('macon')
	]);
	return { ...form, page, site: demoSite('macon', macon, '') };
};

export const actions: Actions = {
	default: (event) => devisForm.action(event)
};
