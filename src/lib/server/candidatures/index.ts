/**
 * Candidatures to the training programme: the domain's whole public surface, bound to the application's
 * services (app.ts). Routes call these; tests call service.ts with their own dependencies.
 */
import type { CandidatureInput } from '$lib/schemas/candidature';
import { appDeps, formIntakeDeps } from '../app';
import { issueFormToken } from '../abuse';
import type { Actor, AdminActor } from '../audit';
import { draftIdOf } from './drafts';
import type { Origin } from '../insights/audience';
import { countEvent } from '../insights';
import * as checkout from './checkout';
import * as service from './service';
import { anonymiseFor, enrol, lockForPayment } from './service';
import type { CandidatureDeps, CandidatureFilters } from './service';

function deps(): CandidatureDeps {
	const { config, payments } = appDeps();
	return { ...formIntakeDeps(), origin: config.origin, payments };
}

export const submit = (input: CandidatureInput, address: string, source: 'page' | 'api', origin?: Origin) =>
	service.submitCandidature(deps(), input, address, source, origin);
export const list = (filters: CandidatureFilters, page: number) =>
	service.listCandidatures(appDeps().db, filters, page);
export const find = (id: string) => service.findCandidature(appDeps().db, id);
export const countByStatus = (filters?: CandidatureFilters) => service.countByStatus(appDeps().db, filters);
export const approve = (id: string, admin: AdminActor) => service.approveCandidature(deps(), id, admin);
export const reject = (id: string, admin: AdminActor, reason?: string | null) =>
	service.rejectCandidature(deps(), id, admin, reason);
export const resendNotification = (id: string, admin: Actor) => service.resendNotification(deps(), id, admin);
export const paymentLinkOf = (id: string) => checkout.paymentLinkOf(deps(), id);
export const checkoutForToken = (token: string) => checkout.checkoutForToken(deps(), token);
export const paymentsOn = () => appDeps().payments !== null;
/** A fresh time-trap token for the wizard (the same defence as the lead forms). */
export const newFormToken = () => issueFormToken(appDeps().config.signingSecret);

/** The wizard's draft named by the visitor's cookie; null when there is none (or it expired). */
export async function readDraft(cookieToken: string | undefined) {
	const id = draftIdOf(cookieToken);
	return id ? service.readDraft(appDeps().db, id) : null;
}
export async function saveDraft(cookieToken: string, answers: Record<string, unknown>) {
	const id = draftIdOf(cookieToken);
	if (!id) throw new Error('not a draft token');
	// A draft started is the funnel's second step, and nothing else keeps it (drafts are deleted once sent).
	if (await service.saveDraft(appDeps().db, id, answers)) countEvent('candidature-draft-started');
}
export async function deleteDraft(cookieToken: string | undefined) {
	const id = draftIdOf(cookieToken);
	if (id) await service.deleteDraft(appDeps().db, id);
}
export const purgeOldDrafts = () => service.purgeOldDrafts(appDeps().db);

export { DRAFT_COOKIE, isDraftToken, newDraftToken } from './drafts';
export * as wizard from './wizard';
export type { Answers as WizardAnswers, Direction as WizardDirection } from './wizard';
export { PAGE_SIZE, ALREADY_OPEN_MESSAGE } from './service';
export { filtersOf } from './filters';
export type { ApprovalResult, RejectionResult, Candidature, CandidatureFilters } from './service';

/** A candidature's row inside a membership's own transaction (its payment, a member's deletion). */
export const candidatureRecords = { lockForPayment, enrol, anonymiseFor };
