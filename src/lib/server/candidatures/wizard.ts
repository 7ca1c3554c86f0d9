/**
 * The candidature wizard's rules, free of HTTP: which step a visitor may open, what "Suivant" and "Retour" keep of a
 * posted step, and where each leads. The route (`/candidature`) reads the draft, calls these and answers; tested in
 * `wizard.test.ts`.
 */
import { candidatureSchema, WIZARD_STEPS, type CandidatureInput } from '$lib/schemas/candidature';

export type WizardStep = (typeof WIZARD_STEPS)[number];
/** A draft's answers: what the steps' schemas accepted, and the time-trap token issued with the first save. */
export type Answers = Record<string, unknown>;
export type Direction = 'next' | 'back';

/** The last step, the recap with its consent: its index, and the step. */
export const RECAP = 3;
export const RECAP_STEP = WIZARD_STEPS[RECAP];
const QUESTION_STEPS = WIZARD_STEPS.slice(0, RECAP);

/** The step a `?etape=` names; -1 for none or an unknown one. */
export const stepIndexOf = (slug: string | null): number => WIZARD_STEPS.findIndex((s) => s.slug === slug);

/** The first step whose answers are missing or invalid; the recap once every question step is done. */
export function firstIncomplete(answers: Answers): number {
	const index = QUESTION_STEPS.findIndex((step) => !step.schema.safeParse(answers).success);
	return index === -1 ? RECAP : index;
}

/**
 * The step to show for `?etape=`: the one asked, unless it lies past the first unfinished step (its answers would
 * be judged on nothing), and the first unfinished step when none is asked.
 */
export function stepToShow(answers: Answers, askedSlug: string | null): number {
	const reachable = firstIncomplete(answers);
	const asked = stepIndexOf(askedSlug);
	return asked === -1 ? reachable : Math.min(asked, reachable);
}

/** The step a posted form belongs to (`?etape=`): the first one when the query names none. */
export const postedStep = (slug: string | null): WizardStep =>
	WIZARD_STEPS[stepIndexOf(slug)] ?? WIZARD_STEPS[0];

/**
 * A step's save: "Suivant" keeps only what the step's schema accepted (the caller refuses an invalid step
 * first), "Retour" keeps what was typed, valid or not yet. Only the step's own fields are taken from the post, and
 * the time trap starts at the first save: its token, once issued, travels unchanged in the draft.
 */
export function answersAfterSave(
	step: WizardStep,
	answers: Answers,
	posted: Answers,
	issueFormToken: () => string
): Answers {
	const typed = Object.fromEntries(Object.entries(posted).filter(([key]) => key in step.schema.shape));
	return { ...answers, ...typed, formToken: answers.formToken ?? issueFormToken() };
}

/** Where a save leads: the next step, or the previous one (never before the first). */
export function stepAfterSave(step: WizardStep, direction: Direction): WizardStep {
	const index = WIZARD_STEPS.indexOf(step) + (direction === 'next' ? 1 : -1);
	return WIZARD_STEPS[Math.min(Math.max(0, index), RECAP)]!;
}

/** What the recap shows: every answer as the candidate gave it, or null while a step is unfinished. */
export const recapOf = (answers: Answers): CandidatureInput | null =>
	candidatureSchema.safeParse({ ...answers, consent: true }).data ?? null;

/**
 * The whole candidature at "Envoyer": the draft's answers and time-trap token with the recap's consent and
 * honeypot; or, when a step is unfinished (answered in another tab, a draft that expired), the step to go back to.
 */
export function completeCandidature(
	answers: Answers,
	recap: { consent: boolean; website?: string }
): { input: CandidatureInput } | { unfinished: WizardStep } {
	const whole = candidatureSchema.safeParse({ ...answers, consent: recap.consent, website: recap.website });
	return whole.success ? { input: whole.data } : { unfinished: WIZARD_STEPS[firstIncomplete(answers)]! };
}

/** What the browser's checks say of a field (form-checks.js): the step schema's own words. */
export interface FieldMessages {
	/** Left empty. */
	missing?: string;
	/** Filled in, but not in the expected form (or out of range). */
	format?: string;
}

/**
 * Each field's messages, read from the step's schema by trying it on an empty and on a malformed value: the
 * browser's checks (which know only the rules rendered on the controls) say exactly what the server would.
 */
export function fieldMessages(step: WizardStep): Record<string, FieldMessages> {
	const messageFor = (field: string, value: unknown) => {
		const result = step.schema.safeParse({ [field]: value });
		return result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)?.message;
	};
	return Object.fromEntries(
		Object.keys(step.schema.shape).map((field) => {
			const missing = messageFor(field, '') ?? messageFor(field, undefined);
			// A malformed text, and a number out of range (the number fields' inputs send numbers).
			const format = [messageFor(field, 'x'), messageFor(field, 0)].find((m) => m && m !== missing);
			return [field, { missing, format }];
		})
	);
}
