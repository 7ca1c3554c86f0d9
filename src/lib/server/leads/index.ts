/**
 * Contact and devis requests: the domain's whole public surface, bound to the application's services (app.ts).
 * The canonical example of a domain: routes call these; tests call service.ts with their own dependencies.
 */
import type { ContactInput, DevisInput } from '$lib/schemas/leads';
import { appDeps } from '../app';
import { agencySender, businessSender } from '../mail';
import { issueFormToken } from './form-token';
import * as service from './service';
import type { LeadDeps, LeadFilters, LeadKind, LeadSource } from './service';

function deps(): LeadDeps {
	const { db, mail, config } = appDeps();
	return {
		db,
		mail,
		adminEmail: config.adminEmail,
		signingSecret: config.signingSecret,
		// Showcase mode has no admin: the notification is the business's whole record of the request.
		inboxUrl: config.siteMode === 'showcase' ? null : new URL('/admin/demandes', config.origin).href,
		sender: config.siteMode === 'showcase' ? businessSender : agencySender
	};
}

export const submit = (
	kind: LeadKind,
	input: ContactInput | DevisInput,
	address: string,
	source: LeadSource
) => service.submitLead(deps(), kind, input, address, source);
export const list = (filters: LeadFilters) => service.listLeads(appDeps().db, filters);
export const setHandled = (id: string, handled: boolean) => service.setHandled(appDeps().db, id, handled);
export const markNotSpam = (id: string) => service.markNotSpam(deps(), id);
export const resendNotification = (id: string) => service.resendNotification(deps(), id);
export const remove = (id: string) => service.deleteLead(appDeps().db, id);
export const countOpen = () => service.countOpenLeads(appDeps().db);
export const countFailedNotifications = () => service.countFailedNotifications(appDeps().db);
export const exportCsv = (filters: LeadFilters) => service.exportCsv(appDeps().db, filters);
export const lastRetentionRun = () => service.lastRetentionRun(appDeps().db);
export const retentionDays = () => appDeps().config.leadsRetentionDays;
export const purgeOld = () => service.purgeOldLeads(appDeps().db, appDeps().config.leadsRetentionDays);
/** A fresh time-trap token for a page that shows a lead form. */
export const newFormToken = () => issueFormToken(appDeps().config.signingSecret);

export { filtersOf } from './filters';
export type { LeadFilters, LeadKind, LeadSource, SubmitResult } from './service';
