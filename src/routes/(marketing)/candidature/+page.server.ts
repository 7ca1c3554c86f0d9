/**
 * The candidature wizard: four steps, each a form posted to `?/save` (superforms' enhance when JavaScript runs:
 * no page load between steps), validated by its own schema and kept in a server-side draft named by a cookie,
 * so that a reload or a return days later finds the answers. The last step validates the whole and makes the
 * same domain call as `POST /api/candidature`.
 */
import { fail, redirect, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { message, superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { FIX_STEP } from '$lib/messages';
import { WIZARD_STEPS, candidatureSchema } from '$lib/schemas/candidature';
import * as candidatures from '$lib/server/candidatures';
import { formFailure } from '$lib/server/http/forms';
import type { Actions, PageServerLoad } from './$types';

/** The wizard moves between its steps without a page load: SvelteKit's client runs here. */
export const csr = true;

type Step = (typeof WIZARD_STEPS)[number];
type Answers = Record<string, unknown>;

const DRAFT_COOKIE_DAYS = 30;
const stepAt = (slug: string | null): number => WIZARD_STEPS.findIndex((s) => s.slug === slug);

/** The first step whose answers are missing or invalid (the recap once all three are done). */
function firstIncomplete(answers: Answers): number {
	const index = WIZARD_STEPS.slice(0, 3).findIndex((step) => !step.schema.safeParse(answers).success);
	return index === -1 ? 3 : index;
}

function draftToken(cookies: Cookies, url: URL): string {
	let token = cookies.get(candidatures.DRAFT_COOKIE);
	if (!token || token.length !== 27) {
		token = candidatures.newDraftToken();
		cookies.set(candidatures.DRAFT_COOKIE, token, {
			path: '/candidature',
			httpOnly: true,
			sameSite: 'lax',
			secure: url.protocol === 'https:',
			maxAge: DRAFT_COOKIE_DAYS * 24 * 60 * 60
		});
	}
	return token;
}

const stepForm = (step: Step, answers: Answers) =>
	superValidate(answers as never, zod4(step.schema as never), { id: step.slug, errors: false });

export const load: PageServerLoad = async ({ url, cookies }) => {
	const answers: Answers = (await candidatures.readDraft(cookies.get(candidatures.DRAFT_COOKIE))) ?? {};
	const reachable = firstIncomplete(answers);
	const asked = stepAt(url.searchParams.get('etape'));
	// A step past the first unfinished one cannot be opened yet (its answers would be judged on nothing).
	const index = asked === -1 ? reachable : Math.min(asked, reachable);
	const step = WIZARD_STEPS[index]!;
	return {
		index,
		steps: WIZARD_STEPS.map((s) => ({ slug: s.slug, title: s.title })),
		form: await stepForm(step, { ...answers, formToken: undefined, consent: undefined }),
		// The recap shows every answer as the candidate gave it.
		answers: index === 3 ? (candidatureSchema.safeParse({ ...answers, consent: true }).data ?? null) : null
	};
};

async function saveStep(event: RequestEvent, direction: 'next' | 'back') {
	const step = WIZARD_STEPS[stepAt(event.url.searchParams.get('etape'))] ?? WIZARD_STEPS[0];
	const form = await superValidate(event.request, zod4(step.schema as never), { id: step.slug });
	const token = draftToken(event.cookies, event.url);
	const answers: Answers = (await candidatures.readDraft(token)) ?? {};
	// "Retour" keeps what was typed, valid or not yet; "Suivant" only what its schema accepts.
	if (direction === 'next' && !form.valid)
		return message(form, { type: 'error', text: FIX_STEP }, { status: 400 });
	const typed = Object.fromEntries(
		Object.entries(form.data as Answers).filter(([key]) => key in step.schema.shape)
	);
	// The time trap starts when the wizard first keeps something; its token travels in the draft.
	await candidatures.saveDraft(token, {
		...answers,
		...typed,
		formToken: answers.formToken ?? candidatures.newFormToken()
	});
	const index = WIZARD_STEPS.indexOf(step) + (direction === 'next' ? 1 : -1);
	redirect(303, `/candidature?etape=${WIZARD_STEPS[Math.max(0, index)]!.slug}`);
}

export const actions: Actions = {
	save: (event) => saveStep(event, 'next'),
	back: (event) => saveStep(event, 'back'),
	send: async (event) => {
		const recap = WIZARD_STEPS[3];
		const form = await superValidate(event.request, zod4(recap.schema), { id: recap.slug });
		if (!form.valid) return fail(400, { form });
		const token = event.cookies.get(candidatures.DRAFT_COOKIE);
		const answers: Answers = (await candidatures.readDraft(token)) ?? {};
		// The draft's answers and time-trap token, with this step's consent and honeypot.
		const whole = candidatureSchema.safeParse({
			...answers,
			consent: form.data.consent,
			website: form.data.website
		});
		// A step left unfinished (an answer from another tab, a draft that expired): back to it.
		if (!whole.success) redirect(303, `/candidature?etape=${WIZARD_STEPS[firstIncomplete(answers)]!.slug}`);
		try {
			await candidatures.submit(whole.data, event.getClientAddress(), 'page');
		} catch (error) {
			return formFailure(event, form, error);
		}
		await candidatures.deleteDraft(token);
		event.cookies.delete(candidatures.DRAFT_COOKIE, { path: '/candidature' });
		redirect(303, '/candidature/merci');
	}
};
