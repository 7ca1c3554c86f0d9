/**
 * Leads that are never lost (SEED.md parts 1, 4, 6): a request is stored first and notified second; spam is
 * stored too (flagged) but e-mails no one; a repeated submission returns the first id and sends nothing more.
 */
import { originColumns, type Origin } from '../insights';
import { countRequest, type Limit } from '../abuse';
import { countOf } from '$lib/format';
import type { ContactInput, QuoteInput } from '$lib/schemas/leads';
import type { Db, DbOrTx } from '../db';
import type { Lead } from '../db/schema';
import { NotFoundError } from '../errors';
import { changesOf, recordAudit, type Actor } from '../audit';
import { inBackground } from '../lifecycle';
import { leadAcknowledgement, leadNotification, sendWith, type MailDeps, type MailSender } from '../mail';
import { csvStream } from '../csv';
import { spamReason } from '../abuse';
import { TAB_FILTERS, type InboxPosition, type InboxTab } from './filters';
import { findJobRun, recordJobRun } from '../db/job-runs';
import * as queries from './queries';
import type { LeadFilters } from './queries';

export type { LeadFilters };

export type LeadKind = 'contact' | 'devis';

export const submitLimit: Limit = { name: 'lead-address', max: 10, windowSeconds: 15 * 60 };
const DUPLICATE_WINDOW = '1 minute';

export interface LeadDeps {
	db: Db;
	mail: MailDeps;
	/** Recipient of notifications (ADMIN_EMAIL). */
	adminEmail: string;
	signingSecret: string;
	/** How soon after a form was shown a submission is a robot's (config.ts `waits`). */
	formMinFillMs?: number;
	/** Absolute URL of the admin inbox, for the notification's button; null where there is no admin (showcase). */
	inboxUrl: string | null;
	/** Whom a kind of lead's e-mails come from: the agency, a demo business, or in showcase mode the business. */
	/** Who the messages of a kind of lead come from (the maçon demo's are read from its live page). */
	senderOf: (kind: LeadKind) => MailSender | Promise<MailSender>;
}

export interface SubmitResult {
	id: string;
	duplicate: boolean;
	spam: boolean;
	/**
	 * The e-mails, sent after the answer: true once the business was notified. A silent SMTP server cannot hold
	 * the visitor's request; a failure is recorded on the lead (notify_error) for the inbox's resend button.
	 */
	delivery: Promise<boolean>;
}

/**
 * Where a submission comes from: `page` for the site's own forms (which always carry a form token), `api` for
 * machine clients, for whom the token is optional — but then a tighter per-address limit applies.
 */
export type LeadSource = 'page' | 'api';

/** Machine clients without a form token: the time trap cannot vouch for them, so fewer per address. */
export const untokenedLimit: Limit = {
	name: 'lead-address-untokened',
	max: 3,
	windowSeconds: 15 * 60
};

const nothingSent = Promise.resolve(false);

const blank = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

export async function submitLead(
	deps: LeadDeps,
	kind: LeadKind,
	input: ContactInput | QuoteInput,
	address: string,
	source: LeadSource = 'api',
	origin?: Origin
): Promise<SubmitResult> {
	await countRequest(deps.db, submitLimit, address);
	if (source === 'api' && !input.formToken) await countRequest(deps.db, untokenedLimit, address);
	const reason = await spamReason(deps.db, deps.signingSecret, input, source, deps.formMinFillMs);
	const email = input.email.toLowerCase();
	const devis = kind === 'devis' ? (input as QuoteInput) : null;

	// Store first; only then notify.
	const stored = await queries.insertUnlessDuplicate(
		deps.db,
		{
			kind,
			name: input.name,
			email,
			phone: blank(input.phone),
			company: kind === 'contact' ? blank((input as ContactInput).company) : null,
			city: blank(devis?.city),
			projectType: devis?.projectType ?? null,
			message: input.message,
			spam: reason !== null,
			spamReason: reason,
			...originColumns(origin)
		},
		DUPLICATE_WINDOW
	);
	if (stored.previous)
		return { id: stored.previous.id, duplicate: true, spam: stored.previous.spam, delivery: nothingSent };
	const lead = stored.lead!;
	if (lead.spam) return { id: lead.id, duplicate: false, spam: true, delivery: nothingSent };

	const delivery = inBackground(notify(deps, lead, { acknowledge: true }));
	return { id: lead.id, duplicate: false, spam: false, delivery };
}

/** Notifies the business (Reply-To: the requester) and records the outcome on the lead. */
async function notify(
	deps: LeadDeps,
	lead: Lead,
	{ acknowledge }: { acknowledge: boolean }
): Promise<boolean> {
	const forMail = { ...lead, kind: lead.kind as LeadKind };
	const sender = await deps.senderOf(forMail.kind);
	const notification = leadNotification(forMail, deps.inboxUrl, 'light', sender);
	const result = await sendWith(deps.mail, {
		to: deps.adminEmail,
		replyTo: { name: lead.name, address: lead.email },
		template: `lead-notification-${lead.kind}`,
		...notification
	});
	await queries.recordNotification(deps.db, lead.id, result);
	if (acknowledge) {
		const ack = leadAcknowledgement(forMail.kind, 'light', sender);
		await sendWith(deps.mail, {
			to: lead.email,
			template: `lead-acknowledgement-${lead.kind}`,
			autoReply: true,
			...ack
		});
	}
	return result.sent;
}

export const listLeads = (db: DbOrTx, filters: LeadFilters = {}, limit = 500): Promise<Lead[]> =>
	queries.selectLeads(db, filters, limit);

export const INBOX_PAGE_SIZE = 50;
/**
 * How far the inbox counts: beyond it a tab says « plus de 10 000 ». A count reads every row it counts; the work
 * waiting is a few dozen leads, but « Toutes » is every lead of the years kept.
 */
export const INBOX_COUNT_BOUND = 10_000;
export type { InboxPosition, InboxTab };

const TAB_COUNT = { 'a-traiter': 'open', traitees: 'handled', spam: 'spam', toutes: 'all' } as const;

/**
 * One page of the inbox, walked by keys (a far page costs what the first does): the tab's leads under the type and
 * date filters, every tab's count under the same filters up to INBOX_COUNT_BOUND, where the page's first lead
 * stands (null when past the bound: it is never guessed), and the cursors of the pages on either side (null at an
 * end). A cursor past the end (its leads since deleted) shows the nearest end.
 */
export async function inboxPage(
	db: DbOrTx,
	tab: InboxTab,
	filters: Omit<LeadFilters, 'spam' | 'handled'>,
	position: InboxPosition,
	pageSize = INBOX_PAGE_SIZE
) {
	const scoped = { ...filters, ...TAB_FILTERS[tab] };
	const counts = await queries.countTabs(db, filters, INBOX_COUNT_BOUND);
	const total = counts[TAB_COUNT[tab]];
	const page = await leadsAt(db, scoped, position, pageSize);
	const known = total <= INBOX_COUNT_BOUND;
	let first: number | null = 1;
	if (page.leads.length && page.newer) {
		if (page.older === null && known) first = total - page.leads.length + 1;
		else {
			const before = await queries.countNewerUpTo(db, scoped, page.cursors[0]!, INBOX_COUNT_BOUND);
			first = before <= INBOX_COUNT_BOUND ? before + 1 : null;
		}
	}
	return {
		leads: page.leads,
		counts,
		total,
		bound: INBOX_COUNT_BOUND,
		first,
		newer: page.newer,
		older: page.older,
		pageSize
	};
}

async function leadsAt(
	db: DbOrTx,
	filters: LeadFilters,
	position: InboxPosition,
	pageSize: number
): Promise<{
	leads: Lead[];
	cursors: queries.LeadCursor[];
	newer: queries.LeadCursor | null;
	older: queries.LeadCursor | null;
}> {
	const reading = position && 'older' in position ? 'older' : position ? 'newer' : 'older';
	const cursor =
		position && 'older' in position
			? position.older
			: position && 'newer' in position
				? position.newer
				: null;
	// One more than a page: whether there is a page beyond this one, without counting.
	const found = await queries.selectLeadsAfter(db, filters, cursor, pageSize + 1, reading);
	const beyond = found.length > pageSize;
	// Past the end (its leads since deleted), the nearest end; back to the newest ones, a whole first page rather
	// than the few newer than the cursor.
	if (cursor && (!found.length || (reading === 'newer' && !beyond)))
		return leadsAt(db, filters, reading === 'older' ? { oldest: true } : null, pageSize);
	const shown = found.slice(0, pageSize);
	if (reading === 'newer') shown.reverse();
	const cursors = shown.map(({ lead, at }) => ({ at, id: lead.id }));
	const ends = { first: cursors[0] ?? null, last: cursors.at(-1) ?? null };
	return {
		leads: shown.map(({ lead }) => lead),
		cursors,
		// Reading older leads, a page beyond means older ones remain; a cursor means newer ones were passed.
		newer: reading === 'older' ? (cursor ? ends.first : null) : beyond ? ends.first : null,
		older: reading === 'older' ? (beyond ? ends.last : null) : cursor ? ends.last : null
	};
}

/** The dashboard's latest genuine leads. */
export const latestLeads = (db: DbOrTx, limit = 5) => queries.selectLatest(db, limit);

/** One lead, for its detail page. */
export const findLead = (db: DbOrTx, id: string): Promise<Lead> => getLead(db, id);

async function getLead(db: DbOrTx, id: string): Promise<Lead> {
	const lead = /^[0-9a-f-]{36}$/i.test(id) ? await queries.findLead(db, id) : null;
	if (!lead) throw new NotFoundError('Demande introuvable.');
	return lead;
}

export async function setHandled(db: Db, id: string, handled: boolean, admin: Actor): Promise<void> {
	await db.transaction(async (tx) => {
		const before = await getLead(tx, id);
		await queries.updateHandled(tx, id, handled);
		await recordAudit(tx, admin, {
			kind: handled ? 'lead.handled' : 'lead.unhandled',
			subjectType: 'lead',
			subjectId: id,
			changes: changesOf(before, { handled }, ['handled'])
		});
	});
}

/** Not spam after all: un-flag it and send what was skipped (the notification and the acknowledgement). */
export async function markNotSpam(deps: LeadDeps, id: string, admin: Actor): Promise<boolean> {
	const lead = await getLead(deps.db, id);
	if (!lead.spam) return lead.notifiedAt !== null;
	const cleared = await deps.db.transaction(async (tx) => {
		const unflagged = await queries.clearSpamFlag(tx, id);
		await recordAudit(tx, admin, {
			kind: 'lead.not_spam',
			subjectType: 'lead',
			subjectId: id,
			changes: changesOf(lead, unflagged, ['spam'])
		});
		return unflagged;
	});
	return notify(deps, cleared, { acknowledge: true });
}

/** Sends the business notification again (after SMTP came back, say). */
export async function resendNotification(deps: LeadDeps, id: string, admin: Actor): Promise<boolean> {
	const lead = await getLead(deps.db, id);
	if (lead.spam) return false;
	await recordAudit(deps.db, admin, { kind: 'lead.notification_resent', subjectType: 'lead', subjectId: id });
	return notify(deps, lead, { acknowledge: false });
}

/** Erasure on request (RGPD): the lead is gone, not flagged. */
export async function deleteLead(db: Db, id: string, admin: Actor): Promise<void> {
	await db.transaction(async (tx) => {
		const lead = await getLead(tx, id);
		await queries.removeLead(tx, id);
		// What it was, not who sent it: the lead's contents were personal data, and are gone.
		await recordAudit(tx, admin, {
			kind: 'lead.deleted',
			subjectType: 'lead',
			subjectId: id,
			changes: { kind: { before: lead.kind, after: null } }
		});
	});
}

/** Genuine requests nobody has handled yet (the admin dashboard's figure). */
export const countOpenLeads = (db: DbOrTx) => queries.countOpen(db);

export const countFailedNotifications = (db: DbOrTx) => queries.countLeads(db, queries.FAILED_NOTIFICATIONS);

const CSV_HEADERS = [
	'id',
	'type',
	'reçue le',
	'nom',
	'e-mail',
	'téléphone',
	'entreprise',
	'ville',
	'type de projet',
	'message',
	'spam',
	'traitée',
	'notifiée le',
	'erreur de notification',
	'envoyée depuis',
	'site d’origine',
	'utm_source',
	'utm_medium',
	'utm_campaign'
];

/** Leads read at a time by an export: a batch is what its memory holds. */
const EXPORT_BATCH = 1000;

/**
 * The inbox as a spreadsheet: personal data leaving the site, so the trail records who took it and which part (how
 * many rows: counted when it starts). Streamed: the rows are read by keys, a batch each time the client has taken the
 * last one, so that 200,000 leads go out in the memory of 1,000 and the first line leaves at once.
 */
export async function exportCsv(
	db: Db,
	filters: LeadFilters,
	admin: Actor
): Promise<ReadableStream<Uint8Array>> {
	await db.transaction(async (tx) => {
		const rows = await queries.countLeads(tx, filters);
		await recordAudit(tx, admin, {
			kind: 'leads.exported',
			subjectType: 'leads',
			changes: { exported: { before: null, after: { rows, filters: exportedFilters(filters) } } }
		});
	});
	return csvStream(CSV_HEADERS, leadBatches(db, filters));
}

async function* leadBatches(db: DbOrTx, filters: LeadFilters) {
	let cursor: queries.LeadCursor | null = null;
	for (;;) {
		const batch = await queries.selectLeadsAfter(db, filters, cursor, EXPORT_BATCH);
		if (batch.length) yield batch.map(({ lead }) => csvRowOf(lead));
		if (batch.length < EXPORT_BATCH) return;
		const last = batch.at(-1)!;
		cursor = { at: last.at, id: last.lead.id };
	}
}

const csvRowOf = (l: Lead) => [
	l.id,
	l.kind,
	l.createdAt.toISOString(),
	l.name,
	l.email,
	l.phone,
	l.company,
	l.city,
	l.projectType,
	l.message,
	l.spam ? 'oui' : 'non',
	l.handled ? 'oui' : 'non',
	l.notifiedAt?.toISOString() ?? '',
	l.notifyError,
	l.sourcePage,
	l.referrerHost,
	l.utmSource,
	l.utmMedium,
	l.utmCampaign
];

/** The export's filters as the trail keeps them: dates as ISO strings, nothing typed by a visitor. */
const exportedFilters = (filters: LeadFilters) =>
	Object.fromEntries(
		Object.entries(filters)
			.filter(([, value]) => value !== undefined)
			.map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value])
	);

export const RETENTION_JOB = 'leads-retention';

/** Deletes leads older than the retention period and records the run. */
export async function purgeOldLeads(db: DbOrTx, retentionDays: number, now = new Date()): Promise<number> {
	const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
	const deleted = await queries.deleteOlderThan(db, cutoff);
	await recordJobRun(db, RETENTION_JOB, now, countOf(deleted, 'supprimée'));
	return deleted;
}

export const lastRetentionRun = (db: DbOrTx) => findJobRun(db, RETENTION_JOB);
