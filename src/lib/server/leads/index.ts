/**
 * Contact and devis requests: the domain's whole public surface, bound to the application's services (app.ts).
 * The canonical example of a domain: routes call these; tests call service.ts with their own dependencies.
 */
import type { ContactInput, QuoteInput } from '$lib/schemas/leads';
import { appDeps, formIntakeDeps } from '../app';
import { agencySender, businessSender, demoSender } from '../mail';
import * as content from '../content';
import { issueFormToken } from '../abuse';
import type { Actor } from '../audit';
import type { Origin } from '../insights/audience';
import * as service from './service';
import type { InboxPosition, InboxTab, LeadDeps, LeadFilters, LeadKind, LeadSource } from './service';

function deps(): LeadDeps {
	const { config } = appDeps();
	return {
		...formIntakeDeps(),
		// Showcase mode has no admin: the notification is the business's whole record of the request.
		inboxUrl: config.siteMode === 'showcase' ? null : new URL('/admin/demandes', config.origin).href,
		// The platform's quote form is the maçon demo's: its replies are the demo business's, not the agency's.
		senderOf:
			config.siteMode === 'showcase'
				? () => businessSender
				: async (kind) => (kind === 'devis' ? demoSender(await content.demo('macon')) : agencySender)
	};
}

export const submit = (
	kind: LeadKind,
	input: ContactInput | QuoteInput,
	address: string,
	source: LeadSource,
	origin?: Origin
) => service.submitLead(deps(), kind, input, address, source, origin);
export const list = (filters: LeadFilters) => service.listLeads(appDeps().db, filters);
export const inbox = (tab: InboxTab, filters: LeadFilters, position: InboxPosition) =>
	service.inboxPage(appDeps().db, tab, filters, position);
export const latest = () => service.latestLeads(appDeps().db);
export const find = (id: string) => service.findLead(appDeps().db, id);
export const setHandled = (id: string, handled: boolean, admin: Actor) =>
	service.setHandled(appDeps().db, id, handled, admin);
export const markNotSpam = (id: string, admin: Actor) => service.markNotSpam(deps(), id, admin);
export const resendNotification = (id: string, admin: Actor) => service.resendNotification(deps(), id, admin);
export const remove = (id: string, admin: Actor) => service.deleteLead(appDeps().db, id, admin);
export const countOpen = () => service.countOpenLeads(appDeps().db);
export const countFailedNotifications = () => service.countFailedNotifications(appDeps().db);
export const exportCsv = (filters: LeadFilters, admin: Actor) =>
	service.exportCsv(appDeps().db, filters, admin);
export const lastRetentionRun = () => service.lastRetentionRun(appDeps().db);
export const retentionDays = () => appDeps().config.leadsRetentionDays;
export const purgeOld = () => service.purgeOldLeads(appDeps().db, appDeps().config.leadsRetentionDays);
/** A fresh time-trap token for a page that shows a lead form. */
export const newFormToken = () => issueFormToken(appDeps().config.signingSecret);

export { cursorParam, filtersOf, inboxFilters, positionOf, tabOf } from './filters';
export type { InboxPosition, InboxTab, LeadFilters, LeadKind, LeadSource, SubmitResult } from './service';
