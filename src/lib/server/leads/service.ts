/**
 * Leads that are never lost (SEED.md parts 1, 4, 6): a request is stored first and notified second; spam is
 * stored too (flagged) but e-mails no one; a repeated submission returns the first id and sends nothing more.
 */
import { and, count, desc, eq, gte, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { ContactInput, DevisInput } from '$lib/schemas/leads';
import type { Db, DbOrTx } from '../db';
import { jobRuns, leads, type Lead } from '../db/schema';
import { NotFoundError } from '../errors';
import * as rateLimit from '../http/rate-limit';
import { log } from '../log';
import { leadAcknowledgement, leadNotification, sendWith, type MailDeps } from '../mail';
import { toCsv } from './csv';
import { checkFormToken, claimFormToken, type TokenVerdict } from './form-token';

export type LeadKind = 'contact' | 'devis';
/** Where a submission came from: the JSON API (scripts, and the pages' forms with JavaScript) or a page's form action. */
export type LeadSource = 'api' | 'page';

export const submitLimit: rateLimit.Limit = { name: 'lead-address', max: 10, windowSeconds: 15 * 60 };
/** API clients that bring no form token: the time trap cannot vouch for them, so fewer tries per address. */
export const untokenedLimit: rateLimit.Limit = {
	name: 'lead-address-no-token',
	max: 3,
	windowSeconds: 15 * 60
};
const DUPLICATE_WINDOW = '1 minute';

export interface LeadDeps {
	db: Db;
	mail: MailDeps;
	/** Recipient of notifications (ADMIN_EMAIL). */
	adminEmail: string;
	signingSecret: string;
	/** Absolute URL of the admin inbox, for the notification's button. */
	inboxUrl: string;
	/** Hands over work that outlives the request (the e-mails of a new lead), so that shutdown can wait for it. */
	background?: (task: Promise<unknown>) => void;
}

export interface SubmitResult {
	id: string;
	duplicate: boolean;
	spam: boolean;
	/**
	 * The e-mails are sent after the answer, in the background: this settles once they were tried, with true
	 * when the business was notified (false for spam and duplicates). It never rejects.
	 */
	notified: Promise<boolean>;
}

type TokenState = TokenVerdict | 'absent';

function spamReason(input: { website?: string }, token: TokenState, source: LeadSource): string | null {
	if (input.website && input.website.trim() !== '') return 'champ piège rempli';
	if (token === 'absent') return source === 'page' ? 'jeton de formulaire absent' : null;
	if (token === 'too-fast') return 'envoyé moins de 3 secondes après l’affichage';
	if (token === 'invalid') return 'jeton de formulaire invalide';
	return null;
}

const blank = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/**
 * Stores a request and answers at once; the e-mails follow in the background (`notified`), so that a slow
 * or silent SMTP server never holds the visitor. Page forms must bring their form token (none: spam); API
 * clients without one meet a tighter per-address limit. A token is good for one request: used again for
 * another, the request is kept as spam.
 */
export async function submitLead(
	deps: LeadDeps,
	kind: LeadKind,
	input: ContactInput | DevisInput,
	address: string,
	source: LeadSource = 'api'
): Promise<SubmitResult> {
	await rateLimit.hit(deps.db, submitLimit, address);
	const token: TokenState =
		input.formToken === undefined || input.formToken === ''
			? 'absent'
			: checkFormToken(deps.signingSecret, input.formToken);
	if (token === 'absent' && source === 'api') await rateLimit.hit(deps.db, untokenedLimit, address);
	const email = input.email.toLowerCase();
	const devis = kind === 'devis' ? (input as DevisInput) : null;

	// Store first. The lock makes "is this a duplicate?" and "store it" one step, even for simultaneous requests.
	const stored = await deps.db.transaction(async (tx) => {
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${kind}|${email}|${input.message}`}))`);
		const [previous] = await tx
			.select({ id: leads.id, spam: leads.spam })
			.from(leads)
			.where(
				and(
					eq(leads.kind, kind),
					eq(leads.email, email),
					eq(leads.message, input.message),
					gte(leads.createdAt, sql`now() - interval '${sql.raw(DUPLICATE_WINDOW)}'`)
				)
			)
			.orderBy(leads.createdAt)
			.limit(1);
		if (previous) return { lead: null, previous };
		let reason = spamReason(input, token, source);
		// Claimed in this transaction: a request that fails to be stored leaves its token unused.
		if ((token === 'ok' || token === 'too-fast') && !(await claimFormToken(tx, input.formToken!)))
			reason ??= 'jeton de formulaire déjà utilisé';
		const [lead] = await tx
			.insert(leads)
			.values({
				kind,
				name: input.name,
				email,
				phone: blank(input.phone),
				company: kind === 'contact' ? blank((input as ContactInput).company) : null,
				city: devis?.city ?? null,
				projectType: devis?.projectType ?? null,
				message: input.message,
				spam: reason !== null,
				spamReason: reason
			})
			.returning();
		return { lead: lead!, previous: null };
	});
	if (stored.previous)
		return {
			id: stored.previous.id,
			duplicate: true,
			spam: stored.previous.spam,
			notified: Promise.resolve(false)
		};
	const lead = stored.lead!;
	if (lead.spam) return { id: lead.id, duplicate: false, spam: true, notified: Promise.resolve(false) };

	const notified = notify(deps, lead, { acknowledge: true }).catch((error: unknown) => {
		// notify records its own failures on the lead; this is what it could not record (the database gone).
		log.error('lead notification failed', { lead: lead.id, error });
		return false;
	});
	deps.background?.(notified);
	return { id: lead.id, duplicate: false, spam: false, notified };
}

/** Notifies the business (Reply-To: the requester) and records the outcome on the lead. */
async function notify(
	deps: LeadDeps,
	lead: Lead,
	{ acknowledge }: { acknowledge: boolean }
): Promise<boolean> {
	const kind = lead.kind as LeadKind;
	const notification = leadNotification({ ...lead, kind }, deps.inboxUrl);
	const notifyBusiness = async () => {
		// Structured addresses only: whatever the name holds, it is a display name, never another recipient.
		const result = await sendWith(deps.mail, {
			to: { address: deps.adminEmail },
			replyTo: { name: lead.name, address: lead.email },
			template: `lead-notification-${kind}`,
			...notification
		});
		await deps.db
			.update(leads)
			.set(
				result.sent
					? { notifiedAt: new Date(), notifyError: null }
					: { notifyError: result.error ?? 'échec inconnu' }
			)
			.where(eq(leads.id, lead.id));
		return result.sent;
	};
	// Side by side: a server that never answers costs one time limit, not two.
	const [sent] = await Promise.all([
		notifyBusiness(),
		acknowledge &&
			sendWith(deps.mail, {
				to: { address: lead.email },
				template: `lead-acknowledgement-${kind}`,
				...leadAcknowledgement(kind)
			})
	]);
	return sent;
}

export interface LeadFilters {
	kind?: LeadKind;
	spam?: boolean;
	handled?: boolean;
	from?: Date;
	to?: Date;
}

function where(filters: LeadFilters): SQL | undefined {
	const conditions: SQL[] = [];
	if (filters.kind) conditions.push(eq(leads.kind, filters.kind));
	if (filters.spam !== undefined) conditions.push(eq(leads.spam, filters.spam));
	if (filters.handled !== undefined) conditions.push(eq(leads.handled, filters.handled));
	if (filters.from) conditions.push(gte(leads.createdAt, filters.from));
	if (filters.to) conditions.push(lte(leads.createdAt, filters.to));
	return conditions.length ? and(...conditions) : undefined;
}

export async function listLeads(db: DbOrTx, filters: LeadFilters = {}, limit = 500): Promise<Lead[]> {
	return db.select().from(leads).where(where(filters)).orderBy(desc(leads.createdAt)).limit(limit);
}

async function getLead(db: DbOrTx, id: string): Promise<Lead> {
	if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError('Demande introuvable.');
	const [lead] = await db.select().from(leads).where(eq(leads.id, id));
	if (!lead) throw new NotFoundError('Demande introuvable.');
	return lead;
}

export async function setHandled(db: DbOrTx, id: string, handled: boolean): Promise<void> {
	await getLead(db, id);
	await db.update(leads).set({ handled }).where(eq(leads.id, id));
}

/** Not spam after all: un-flag it and send what was skipped (the notification and the acknowledgement). */
export async function markNotSpam(deps: LeadDeps, id: string): Promise<boolean> {
	const lead = await getLead(deps.db, id);
	if (!lead.spam) return lead.notifiedAt !== null;
	const [updated] = await deps.db
		.update(leads)
		.set({ spam: false, spamReason: null })
		.where(eq(leads.id, id))
		.returning();
	return notify(deps, updated!, { acknowledge: true });
}

/** Sends the business notification again (after SMTP came back, say). */
export async function resendNotification(deps: LeadDeps, id: string): Promise<boolean> {
	const lead = await getLead(deps.db, id);
	if (lead.spam) return false;
	return notify(deps, lead, { acknowledge: false });
}

/** Erasure on request (RGPD): the lead is gone, not flagged. */
export async function deleteLead(db: DbOrTx, id: string): Promise<void> {
	await getLead(db, id);
	await db.delete(leads).where(eq(leads.id, id));
}

/** Genuine requests nobody has handled yet (the admin dashboard's figure). */
export async function countOpenLeads(db: DbOrTx): Promise<number> {
	const [row] = await db
		.select({ n: count() })
		.from(leads)
		.where(and(eq(leads.spam, false), eq(leads.handled, false)));
	return row?.n ?? 0;
}

export async function countFailedNotifications(db: DbOrTx): Promise<number> {
	const [row] = await db
		.select({ n: count() })
		.from(leads)
		.where(and(eq(leads.spam, false), isNotNull(leads.notifyError), isNull(leads.notifiedAt)));
	return row?.n ?? 0;
}

export async function exportCsv(db: DbOrTx, filters: LeadFilters = {}): Promise<string> {
	const rows = await db.select().from(leads).where(where(filters)).orderBy(desc(leads.createdAt));
	return toCsv(
		[
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
			'erreur de notification'
		],
		rows.map((l) => [
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
			l.notifyError
		])
	);
}

export const RETENTION_JOB = 'leads-retention';

/** Deletes leads older than the retention period and records the run. */
export async function purgeOldLeads(db: DbOrTx, retentionDays: number, now = new Date()): Promise<number> {
	const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
	const deleted = await db.delete(leads).where(lt(leads.createdAt, cutoff)).returning({ id: leads.id });
	await db
		.insert(jobRuns)
		.values({ name: RETENTION_JOB, lastRunAt: now, detail: `${deleted.length} supprimée(s)` })
		.onConflictDoUpdate({
			target: jobRuns.name,
			set: { lastRunAt: now, detail: `${deleted.length} supprimée(s)` }
		});
	return deleted.length;
}

export async function lastRetentionRun(db: DbOrTx): Promise<{ at: Date; detail: string | null } | null> {
	const [row] = await db.select().from(jobRuns).where(eq(jobRuns.name, RETENTION_JOB));
	return row ? { at: row.lastRunAt, detail: row.detail } : null;
}
