/**
 * The training programme's candidatures (SEED.md parts 1.4–1.5, 3, 4 "Candidature handling", 6, 7): stored first,
 * then the candidate and the business are e-mailed; admins approve (a Stripe Checkout Session and the branded
 * e-mail, each independent of the other) or reject. The payment link is stable: it makes a fresh session when
 * the last one expired.
 */
import { originColumns, type Origin } from '../insights';
import { countRequest, type Limit } from '../abuse';
import {
	STATUS_LABELS,
	normalizeFrenchPhone,
	type CandidatureInput,
	type CandidatureStatus
} from '$lib/schemas/candidature';
import type { Db, DbOrTx } from '../db';
import { isDatabaseUnavailable } from '../db/unavailable';
import { isUniqueViolation } from '../db/violations';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError } from '../errors';
import { changesOf, recordAudit, type Actor, type AdminActor } from '../audit';
import { spamReason } from '../abuse';
import { inBackground } from '../lifecycle';
import {
	candidatureApproval,
	candidatureConfirmation,
	candidatureNotification,
	candidatureRejection,
	sendWith
} from '../mail';
import { describePaymentError } from '../payments';
import { freshCheckout, paymentLinkOf, PAYMENTS_OFF_MESSAGE } from './checkout';
import type { CandidatureDeps } from './deps';
import * as queries from './queries';
import type { Candidature, CandidatureFilters } from './queries';

export type { CandidatureDeps };

/** Per client address: a person applies once or twice; more is someone scripting the form. */
export const submitLimit: Limit = { name: 'candidature-address', max: 5, windowSeconds: 60 * 60 };

/** 500 whose detail is the database's own message (SEED.md part 7): never the SQL, its parameters or a stack. */
export class CandidatureStorageError extends AppError {
	constructor(databaseMessage: string) {
		super(500, databaseMessage);
	}
}

/** The PostgreSQL error's own message: Drizzle wraps it in "Failed query: <sql> params: …", which must not leak. */
function databaseMessageOf(error: unknown): string {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current; depth++) {
		const candidate = current as { message?: unknown; cause?: unknown; code?: unknown };
		if (typeof candidate.code === 'string' && typeof candidate.message === 'string') return candidate.message;
		current = candidate.cause;
	}
	const message = error instanceof Error ? error.message : String(error);
	return message.startsWith('Failed query') ? 'La base de données a refusé l’enregistrement.' : message;
}

export const ALREADY_OPEN_MESSAGE =
	'Une candidature est déjà en cours pour cette adresse e-mail : nous vous répondons très vite.';

/** Missing configuration that would leave a candidature unknown to anyone (SEED.md part 7): names it. */
function assertCanNotify(deps: CandidatureDeps): void {
	if (!deps.adminEmail.includes('@'))
		throw new ServiceUnavailableError(
			'Les candidatures sont fermées : ADMIN_EMAIL (ou MAIL_FROM) n’est pas configuré, personne ne serait prévenu.'
		);
}

export const adminUrlOf = (origin: URL, id: string) =>
	new URL(`/admin/candidatures/${encodeURIComponent(id)}`, origin).href;

/** Stores the candidature, then — after the answer, in the background — confirms and notifies. */
export async function submitCandidature(
	deps: CandidatureDeps,
	input: CandidatureInput,
	address: string,
	source: 'page' | 'api',
	origin?: Origin,
	now = new Date()
): Promise<{ id: string; status: 'pending'; spam: boolean; delivery: Promise<boolean> }> {
	assertCanNotify(deps);
	await countRequest(deps.db, submitLimit, address);
	const reason = await spamReason(deps.db, deps.signingSecret, input, source, deps.formMinFillMs);
	let stored: Candidature;
	try {
		stored = await queries.insertCandidature(deps.db, {
			firstName: input.firstName,
			lastName: input.lastName,
			email: input.email.toLowerCase(),
			phone: normalizeFrenchPhone(input.phone) ?? input.phone,
			postalCode: input.postalCode,
			city: input.city,
			trade: input.trade,
			tradeOther: input.trade === 'autre' ? (input.tradeOther?.trim() ?? null) : null,
			company: input.company,
			siret: input.siret,
			yearsExperience: input.yearsExperience,
			teamSize: input.teamSize,
			currentSite: input.currentSite?.trim() || null,
			goals: [...new Set(input.goals)],
			presence: [...new Set(input.presence)],
			hoursPerWeek: input.hoursPerWeek,
			motivation: input.motivation,
			consentAt: now,
			spam: reason !== null,
			spamReason: reason,
			...originColumns(origin)
		});
	} catch (error) {
		if (isUniqueViolation(error)) throw new ConflictError(ALREADY_OPEN_MESSAGE);
		if (isDatabaseUnavailable(error)) throw error;
		throw new CandidatureStorageError(databaseMessageOf(error));
	}
	if (stored.spam) return { id: stored.id, status: 'pending', spam: true, delivery: Promise.resolve(false) };
	const delivery = inBackground(notifyNew(deps, stored));
	return { id: stored.id, status: 'pending', spam: false, delivery };
}

const recipient = (c: Candidature) => ({ name: `${c.firstName} ${c.lastName}`, address: c.email });

/** The business's notification (its outcome kept on the candidature) and the candidate's confirmation. */
async function notifyNew(deps: CandidatureDeps, c: Candidature): Promise<boolean> {
	const notified = await notifyAdmin(deps, c);
	await sendWith(deps.mail, {
		to: recipient(c),
		template: 'candidature-confirmation',
		autoReply: true,
		...candidatureConfirmation(c)
	});
	return notified;
}

async function notifyAdmin(deps: CandidatureDeps, c: Candidature): Promise<boolean> {
	const result = await sendWith(deps.mail, {
		to: deps.adminEmail,
		replyTo: recipient(c),
		template: 'candidature-notification',
		...candidatureNotification(c, adminUrlOf(deps.origin, c.id))
	});
	await queries.recordNotification(deps.db, c.id, result.error);
	return result.sent;
}

async function getCandidature(db: DbOrTx, id: string): Promise<Candidature> {
	const c = await queries.selectCandidature(db, id);
	if (!c || c.spam) throw new NotFoundError('Candidature introuvable.');
	return c;
}

/** The admin's "Renvoyer": the business's notification once more. */
export async function resendNotification(deps: CandidatureDeps, id: string, admin: Actor): Promise<boolean> {
	const candidature = await getCandidature(deps.db, id);
	await recordAudit(deps.db, admin, {
		kind: 'candidature.notification_resent',
		subjectType: 'candidature',
		subjectId: id
	});
	return notifyAdmin(deps, candidature);
}

/** One candidature, for its page in the admin (a spam one has none). */
export const findCandidature = (db: DbOrTx, id: string) => getCandidature(db, id);

export const PAGE_SIZE = 20;

/** One page of the admin list (a page past the end shows the last one), with what the pager says. */
export async function listCandidatures(
	db: DbOrTx,
	filters: CandidatureFilters,
	page = 1,
	pageSize = PAGE_SIZE
) {
	const { rows, total } = await queries.selectPage(db, filters, pageSize, (Math.max(1, page) - 1) * pageSize);
	const pages = Math.max(1, Math.ceil(total / pageSize));
	if (page > pages && total > 0) return listCandidatures(db, filters, pages, pageSize);
	return { rows, total, page: Math.max(1, page), pages, pageSize };
}

export const countByStatus = (db: DbOrTx, filters: CandidatureFilters = {}) =>
	queries.countByStatus(db, filters);

function alreadyDecided(c: Candidature): ConflictError {
	const label = STATUS_LABELS[c.status].toLowerCase().replace(/s$/, '');
	return new ConflictError(`Cette candidature n’est plus en attente (${label}).`);
}

async function decide(
	db: Db,
	id: string,
	to: 'approved' | 'rejected',
	admin: AdminActor,
	changes: Partial<queries.NewCandidature> = {}
): Promise<Candidature> {
	return db.transaction(async (tx) => {
		const before = await getCandidature(tx, id);
		if (before.status !== 'pending') throw alreadyDecided(before);
		const decided = await queries.transition(tx, id, 'pending', {
			status: to,
			decidedAt: new Date(),
			decidedBy: admin.id,
			...changes
		});
		// Another admin decided in between: theirs is the one effect.
		if (!decided) throw alreadyDecided(await getCandidature(tx, id));
		// The rejection's reason is the admin's free text about a person: the trail says only that one was given.
		await recordAudit(tx, admin, {
			kind: to === 'approved' ? 'candidature.approved' : 'candidature.rejected',
			subjectType: 'candidature',
			subjectId: id,
			changes: {
				...changesOf(before, decided, ['status']),
				...(to === 'rejected' ? { reasonGiven: { before: null, after: !!decided.rejectionReason } } : {})
			}
		});
		return decided;
	});
}

export interface ApprovalResult {
	status: 'approved';
	checkoutUrl: string | null;
	paymentLink: string;
	emailSent: boolean;
	emailError: string | null;
	paymentError: string | null;
}

/**
 * Approves a pending candidature (else 409; of two simultaneous approvals one wins, the other gets 409), then
 * makes its Checkout Session and sends the dark approval e-mail side by side: either may fail alone, and the
 * answer says which (SEED.md part 8, rule 4).
 */
export async function approveCandidature(
	deps: CandidatureDeps,
	id: string,
	admin: AdminActor
): Promise<ApprovalResult> {
	const approved = await decide(deps.db, id, 'approved', admin);
	const paymentLink = paymentLinkOf(deps, id);
	const payments = deps.payments;
	const checkout = payments
		? freshCheckout({ ...deps, payments }, approved).then(
				(session) => ({ url: session.url, error: null }),
				(error: unknown) => ({ url: null, error: describePaymentError(error) })
			)
		: Promise.resolve({ url: null, error: PAYMENTS_OFF_MESSAGE });
	const email = sendWith(deps.mail, {
		to: recipient(approved),
		template: 'candidature-approval',
		...candidatureApproval(approved, paymentLink)
	});
	const [session, sent] = await Promise.all([checkout, email]);
	return {
		status: 'approved',
		checkoutUrl: session.url,
		paymentLink,
		emailSent: sent.sent,
		emailError: sent.error,
		paymentError: session.error
	};
}

export interface RejectionResult {
	status: 'rejected';
	emailSent: boolean;
	emailError: string | null;
}

/** Rejects a pending candidature (else 409) and tells the candidate, kindly. */
export async function rejectCandidature(
	deps: CandidatureDeps,
	id: string,
	admin: AdminActor,
	reason?: string | null
): Promise<RejectionResult> {
	const rejected = await decide(deps.db, id, 'rejected', admin, { rejectionReason: reason || null });
	const sent = await sendWith(deps.mail, {
		to: recipient(rejected),
		template: 'candidature-rejection',
		...candidatureRejection(rejected, rejected.rejectionReason)
	});
	return { status: 'rejected', emailSent: sent.sent, emailError: sent.error };
}

// ——— Wizard drafts ———

/** A draft is kept this long after its last change (the issue asks for a week at least). */
export const DRAFT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export const readDraft = (db: DbOrTx, draftId: string, now = Date.now()) =>
	queries.readDraft(db, draftId, new Date(now - DRAFT_LIFETIME_MS));
export const saveDraft = (db: DbOrTx, draftId: string, answers: Record<string, unknown>) =>
	queries.writeDraft(db, draftId, answers);
export const deleteDraft = (db: DbOrTx, draftId: string) => queries.deleteDraft(db, draftId);
export const purgeOldDrafts = (db: DbOrTx, now = Date.now()) =>
	queries.deleteDraftsBefore(db, new Date(now - DRAFT_LIFETIME_MS));

/*
 * What the memberships domain needs of a candidature while it applies a payment or deletes an account: each takes
 * the caller's transaction, so that the candidature changes with the membership or not at all. Only this domain
 * writes the candidatures table.
 */

/** The candidature, locked until the transaction ends (two payment events about it apply one after the other). */
export const lockForPayment = (tx: DbOrTx, id: string) => queries.candidatureForUpdate(tx, id);

/** A completed checkout: the candidature is enrolled under the payer's account. */
export const enrol = (tx: DbOrTx, id: string, userId: string) => queries.enrol(tx, id, userId);

/** RGPD, on an account's deletion: what the person's candidatures said of them is blanked; decisions stay. */
export const anonymiseFor = (tx: DbOrTx, user: { id: string; email: string }) =>
	queries.anonymiseCandidatures(tx, user.id, user.email);

export type { Candidature, CandidatureFilters, CandidatureStatus };
