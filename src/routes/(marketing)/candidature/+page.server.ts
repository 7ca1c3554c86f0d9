/**
 * The candidature wizard: four steps, each a form posted to `?/save` and answered with the next step's page (no
 * SvelteKit client: the page that brings in candidates ships only the static pages' small script, and the field
 * checks when a person starts typing — src/lib/platform/form-checks.js), validated by its own schema and kept in
 * a server-side draft named by a cookie, so that a reload or a return days later finds the answers. Which step may open and what a save keeps are the
 * domain's (`candidatures.wizard`); the last step makes the same domain call as `POST /api/candidature`.
 */
import { fail, redirect, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { FIX_STEP } from '$lib/messages';
import { WIZARD_STEPS } from '$lib/schemas/candidature';
import * as candidatures from '$lib/server/candidatures';
import * as content from '$lib/server/content';
import * as insights from '$lib/server/insights';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

const { wizard } = candidatures;
const DRAFT_COOKIE_DAYS = 30;
const stepUrl = (step: { slug: string }) => `/candidature?etape=${step.slug}`;

/** The visitor's draft token: the cookie's, or a new one set now. */
function draftToken(cookies: Cookies, url: URL): string {
	const token = cookies.get(candidatures.DRAFT_COOKIE);
	if (candidatures.isDraftToken(token)) return token;
	const fresh = candidatures.newDraftToken();
	cookies.set(candidatures.DRAFT_COOKIE, fresh, {
		path: '/candidature',
		httpOnly: true,
		sameSite: 'lax',
		secure: url.protocol === 'https:',
		maxAge: DRAFT_COOKIE_DAYS * 24 * 60 * 60
	});
	return fresh;
}

const readAnswers = async (token: string | undefined): Promise<candidatures.WizardAnswers> =>
	(await candidatures.readDraft(token)) ?? {};

export const load: PageServerLoad = async ({ url, cookies, locals, setHeaders }) => {
	const preview = content.isPreview(url, locals.user);
	if (preview) setHeaders({ 'x-robots-tag': 'noindex' });
	const answers = await readAnswers(cookies.get(candidatures.DRAFT_COOKIE));
	const index = wizard.stepToShow(answers, url.searchParams.get('etape'));
	const step = WIZARD_STEPS[index]!;
	return {
		// The page's words: its entry (the introduction above the steps).
		page: await content.page('candidature', preview),
		index,
		steps: WIZARD_STEPS.map((s) => ({ slug: s.slug, title: s.title })),
		form: await superValidate({ ...answers, formToken: undefined, consent: undefined }, zod4(step.schema), {
			id: step.slug,
			errors: false
		}),
		answers: index === wizard.RECAP ? wizard.recapOf(answers) : null,
		// What the browser's checks say of each field: the step schema's own words (form-checks.js).
		fieldMessages: wizard.fieldMessages(step)
	};
};

async function saveStep(event: RequestEvent, direction: candidatures.WizardDirection) {
	const step = wizard.postedStep(event.url.searchParams.get('etape'));
	const form = await superValidate(event.request, zod4(step.schema), { id: step.slug });
	if (direction === 'next' && !form.valid)
		return message(form, { type: 'error', text: FIX_STEP }, { status: 400 });
	const token = draftToken(event.cookies, event.url);
	const answers = await readAnswers(token);
	await candidatures.saveDraft(
		token,
		wizard.answersAfterSave(step, answers, form.data, candidatures.newFormToken)
	);
	redirect(303, stepUrl(wizard.stepAfterSave(step, direction)));
}

export const actions: Actions = {
	save: (event) => saveStep(event, 'next'),
	back: (event) => saveStep(event, 'back'),
	send: async (event) => {
		const recap = wizard.RECAP_STEP;
		const form = await superValidate(event.request, zod4(recap.schema), { id: recap.slug });
		if (!form.valid) return fail(400, { form });
		const token = event.cookies.get(candidatures.DRAFT_COOKIE);
		const whole = wizard.completeCandidature(await readAnswers(token), form.data);
		if ('unfinished' in whole) redirect(303, stepUrl(whole.unfinished));
		try {
			const address = event.getClientAddress();
			const origin = await insights.originOf(event.request, address);
			await candidatures.submit(whole.input, address, 'page', origin);
		} catch (error) {
			return formFailure(event, form, error);
		}
		await candidatures.deleteDraft(token);
		event.cookies.delete(candidatures.DRAFT_COOKIE, { path: '/candidature' });
		redirect(303, '/candidature/merci');
	}
};
