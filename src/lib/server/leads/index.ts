/** Contact and devis requests: the domain's whole public surface, wired to the application's services. */
import { config } from '../config';
import { db } from '../db';
import { mailDeps } from '../mail';
import type { LeadDeps } from './service';

export {
	submitLead,
	listLeads,
	setHandled,
	markNotSpam,
	resendNotification,
	deleteLead,
	countFailedNotifications,
	countOpenLeads,
	exportCsv,
	purgeOldLeads,
	lastRetentionRun,
	submitLimit,
	untokenedLimit,
	type LeadSource,
	type LeadDeps,
	type LeadFilters,
	type LeadKind,
	type SubmitResult
} from './service';
export { issueFormToken, checkFormToken, MIN_FILL_MS } from './form-token';
export { csvCell, toCsv } from './csv';

export const leadDeps = (): LeadDeps => ({
	db,
	mail: mailDeps(),
	adminEmail: config.adminEmail,
	signingSecret: config.signingSecret,
	inboxUrl: new URL('/admin/demandes', config.origin).href
});
