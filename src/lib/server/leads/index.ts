/** Contact and devis requests: the domain's whole public surface, wired to the application's services. */
import { config } from '../config';
import { db } from '../db';
import { onShutdown } from '../lifecycle';
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
	type LeadDeps,
	type LeadSource,
	type LeadFilters,
	type LeadKind,
	type SubmitResult
} from './service';
export { issueFormToken, checkFormToken, claimFormToken, MIN_FILL_MS } from './form-token';
export { csvCell, toCsv } from './csv';

const pending = new Set<Promise<unknown>>();
let waitsAtShutdown = false;

/**
 * Keeps the e-mails sent after a lead was stored, so that shutdown lets them finish (bounded by the SMTP
 * timeouts). The hook is registered on first use, after the database was opened: hooks run most recent
 * first, so the e-mails finish before the database closes.
 */
function inBackground(task: Promise<unknown>): void {
	pending.add(task);
	void task.finally(() => pending.delete(task));
	if (!waitsAtShutdown) {
		waitsAtShutdown = true;
		onShutdown(() => Promise.allSettled([...pending]));
	}
}

export const leadDeps = (): LeadDeps => ({
	db,
	mail: mailDeps(),
	adminEmail: config.adminEmail,
	signingSecret: config.signingSecret,
	inboxUrl: new URL('/admin/demandes', config.origin).href,
	background: inBackground
});
