/**
 * Payments into memberships (SEED.md parts 1.9, 4 "Payment webhook", 6; notes/stripe.md): each Stripe event is
 * applied once — its id is recorded in the same statement or transaction as its effects — whatever order Stripe
 * delivers in; a completed checkout for one of our approved candidatures makes (or finds) the member's account,
 * enrols the candidature and sends a welcome e-mail with a set-password link. The access rule to the courses lives
 * here.
 */
import type Stripe from 'stripe';
import { isUuid } from '$lib/uuid';
import type { Db, DbOrTx } from '../db';
import { AppError, ServiceUnavailableError } from '../errors';
import { inBackground } from '../lifecycle';
import { log } from '../log';
import { accountDeleted, memberWelcome, securityNotices, sendWith, type MailDeps } from '../mail';
import { describePaymentError, type Payments } from '../payments';
import {
	accountIn as accountById,
	assertDeletable,
	deleteUser,
	findOrCreateMember,
	issuePasswordLink,
	verifyOwnPassword
} from '../auth';
import type { SessionUser } from '../auth/session';
import { recordAudit, type Actor } from '../audit';
import { candidatureRecords as candidatures } from '../candidatures';
import { deleteAttestationFiles, forgetAttestationsOf } from '../courses';
import { attachmentPathsOf, deleteAttachmentFiles } from '../training';
import * as queries from './queries';
import type { Membership } from './queries';

export interface MembershipDeps {
	db: Db;
	mail: MailDeps;
	adminEmail: string;
	origin: URL;
	payments: Payments | null;
}

export type EventOutcome = 'applied' | 'ignored' | 'duplicate';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
	typeof value === 'string' ? value : (value?.id ?? null);
const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

/**
 * Whether a state of Stripe time `at` may replace the stored one (never go back to an older state). The same rule
 * is written in SQL for subscription events (NEWER in queries.ts).
 */
function isNewer(at: Date, stored: Date, status: string): boolean {
	if (at.getTime() !== stored.getTime()) return at > stored;
	// Same second: a settled state wins over "incomplete", which only ever comes first.
	return status !== 'incomplete';
}

interface Applied {
	outcome: 'applied' | 'ignored';
	/** Work to do once the transaction has committed (e-mails). */
	after?: () => Promise<unknown>;
}

/**
 * Applies a verified event once. Returns `duplicate` for a replay or a simultaneous delivery that lost the
 * race (the winner's insert holds the id): both are answered 200 by the webhook.
 */
export async function applyEvent(deps: MembershipDeps, event: Stripe.Event): Promise<EventOutcome> {
	const outcome = await applyOnce(deps, event);
	log.info('stripe event', { id: event.id, type: event.type, outcome });
	return outcome;
}

/**
 * A subscription's or an invoice's event is one statement (queries.applySubscriptionState: the id recorded, the
 * state moved or refused as older, in one round trip); a completed checkout makes an account and sends an e-mail,
 * in a transaction that records its id; any other event is recorded as ignored.
 */
function applyOnce(deps: MembershipDeps, event: Stripe.Event): Promise<EventOutcome> {
	const at = new Date(event.created * 1000);
	const state = { eventId: event.id, eventType: event.type, at };
	switch (event.type) {
		case 'checkout.session.completed':
			return checkoutCompleted(deps, event, at);
		case 'customer.subscription.created':
		case 'customer.subscription.updated':
		case 'customer.subscription.deleted': {
			const sub = event.data.object;
			return queries.applySubscriptionState(deps.db, {
				...state,
				subscriptionId: sub.id,
				candidatureId: candidatureIdOf(sub.metadata?.candidatureId),
				customerId: idOf(sub.customer),
				status: event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status,
				periodEnd: seconds(sub.items?.data?.[0]?.current_period_end)
			});
		}
		case 'invoice.paid':
		case 'invoice.payment_failed': {
			const invoice = event.data.object;
			const details = invoice.parent?.subscription_details;
			const subscriptionId = idOf(details?.subscription);
			if (!subscriptionId) return ignore(deps, event);
			const paid = event.type === 'invoice.paid';
			return queries.applySubscriptionState(deps.db, {
				...state,
				subscriptionId,
				candidatureId: candidatureIdOf(details?.metadata?.candidatureId),
				customerId: idOf(invoice.customer),
				status: paid ? 'active' : 'past_due',
				periodEnd: paid ? seconds(invoice.lines?.data?.[0]?.period?.end) : null
			});
		}
		default:
			return ignore(deps, event);
	}
}

async function ignore(deps: MembershipDeps, event: Stripe.Event): Promise<EventOutcome> {
	return (await queries.recordEvent(deps.db, event.id, event.type, 'ignored')) ? 'ignored' : 'duplicate';
}

/** A candidature id from an event's metadata, when it can be one of ours (a uuid); anything else names none. */
const candidatureIdOf = (value: string | null | undefined): string | null =>
	value && isUuid(value) ? value : null;

/** Our candidature, approved or already enrolled, or nothing: an event about anything else is not ours. */
async function ourCandidature(tx: DbOrTx, candidatureId: string | null | undefined) {
	const id = candidatureIdOf(candidatureId);
	if (!id) return null;
	const c = await candidatures.lockForPayment(tx, id);
	return c && !c.spam && (queries.PAYABLE_STATUSES as readonly string[]).includes(c.status) ? c : null;
}

/** A completed checkout, in the transaction that records its id; the welcome e-mail leaves once it committed. */
async function checkoutCompleted(
	deps: MembershipDeps,
	event: Stripe.CheckoutSessionCompletedEvent,
	at: Date
): Promise<EventOutcome> {
	let after: Applied['after'];
	const outcome = await deps.db.transaction(async (tx) => {
		if (!(await queries.recordEvent(tx, event.id, event.type))) return 'duplicate' as const;
		const applied = await enrolPayer(tx, deps, event.data.object, at);
		// Recorded as applied, the usual outcome: one statement fewer for a checkout that makes a member.
		if (applied.outcome === 'ignored') await queries.markEventIgnored(tx, event.id);
		after = applied.after;
		return applied.outcome;
	});
	if (after) inBackground(after());
	return outcome;
}

async function enrolPayer(
	tx: DbOrTx,
	deps: MembershipDeps,
	session: Stripe.Checkout.Session,
	at: Date
): Promise<Applied> {
	const subscriptionId = idOf(session.subscription);
	if (session.mode !== 'subscription' || !subscriptionId) return { outcome: 'ignored' };
	const c = await ourCandidature(tx, session.client_reference_id ?? session.metadata?.candidatureId);
	if (!c || c.status === 'enrolled') return { outcome: 'ignored' };
	const { user } = await findOrCreateMember(tx, c.email, `${c.firstName} ${c.lastName}`);
	const existing = await queries.membershipBySubscription(tx, subscriptionId);
	const customerId = idOf(session.customer);
	if (!existing) {
		await queries.insertMembership(tx, {
			userId: user.id,
			candidatureId: c.id,
			stripeCustomerId: customerId,
			stripeSubscriptionId: subscriptionId,
			status: 'active',
			stateAt: at
		});
	} else {
		// A subscription event came first: it knows the state; the checkout brings the member.
		const newer = isNewer(at, existing.stateAt, 'active');
		await queries.updateMembership(tx, existing.id, {
			userId: user.id,
			candidatureId: c.id,
			stripeCustomerId: customerId ?? existing.stripeCustomerId,
			...(newer && existing.status === 'incomplete' ? { status: 'active', stateAt: at } : {})
		});
	}
	await candidatures.enrol(tx, c.id, user.id);
	const link = await issuePasswordLink(tx, user.id, 'welcome', deps.origin);
	return {
		outcome: 'applied',
		after: () =>
			sendWith(deps.mail, {
				to: { name: `${c.firstName} ${c.lastName}`, address: c.email },
				template: 'member-welcome',
				...memberWelcome(c.firstName, link)
			})
	};
}

// ——— Access to the courses ———

export type CourseAccess =
	| { allowed: true; reason: 'admin' | 'member' }
	| { allowed: true; reason: 'grace'; until: Date }
	| { allowed: false; reason: 'none' | 'ended' };

/**
 * THE access rule to the courses: admins always; members while their subscription is `active` or `trialing`,
 * and while `past_due` until the paid period ends (with a banner asking to update the card); nobody else.
 */
export function courseAccess(
	user: { isAdmin: boolean },
	membership: Pick<Membership, 'status' | 'currentPeriodEnd'> | null | undefined,
	now = new Date()
): CourseAccess {
	if (user.isAdmin) return { allowed: true, reason: 'admin' };
	if (!membership) return { allowed: false, reason: 'none' };
	if (membership.status === 'active' || membership.status === 'trialing')
		return { allowed: true, reason: 'member' };
	if (membership.status === 'past_due' && membership.currentPeriodEnd && membership.currentPeriodEnd > now)
		return { allowed: true, reason: 'grace', until: membership.currentPeriodEnd };
	return { allowed: false, reason: 'ended' };
}

export const membershipOf = (db: DbOrTx, userId: string) => queries.membershipOfUser(db, userId);

// ——— Self-service ———

/** "Gérer mon abonnement": a Stripe Billing Portal session for the member's customer. */
export async function billingPortalUrl(
	deps: MembershipDeps,
	userId: string,
	returnUrl: string
): Promise<string> {
	const membership = await queries.membershipOfUser(deps.db, userId);
	if (!deps.payments || !membership?.stripeCustomerId)
		throw new ServiceUnavailableError('La gestion de l’abonnement en ligne n’est pas disponible.');
	try {
		const portal = await deps.payments.stripe.billingPortal.sessions.create({
			customer: membership.stripeCustomerId,
			return_url: returnUrl
		});
		return portal.url;
	} catch (error) {
		throw new ServiceUnavailableError(`Stripe ne répond pas : ${describePaymentError(error)}`, 60);
	}
}

const ENDED = new Set(['canceled', 'incomplete_expired']);

/**
 * Account deletion (RGPD): the password confirms it; the subscription is cancelled first (if Stripe cannot, nothing
 * is deleted); then the candidature is anonymised and the user deleted with their sessions, memberships and
 * progress; the business is told by e-mail.
 */
export async function deleteAccount(
	deps: MembershipDeps,
	who: { userId: string; sessionId: string },
	password: string
): Promise<void> {
	await removeAccount(deps, await verifyOwnPassword(deps.db, who, password), null);
}

/**
 * An admin deletes a member's account (after re-authenticating, which the route asks): the same removal as the
 * member's own, recorded in the audit trail in the transaction that deletes it.
 */
export async function deleteAccountAsAdmin(
	deps: MembershipDeps,
	targetId: string,
	admin: Actor
): Promise<void> {
	await assertDeletable(deps.db, targetId, admin);
	await removeAccount(deps, await accountById(deps.db, targetId), admin);
}

async function removeAccount(deps: MembershipDeps, user: SessionUser, admin: Actor | null): Promise<void> {
	const userId = user.id;
	const membership = await queries.membershipOfUser(deps.db, userId);
	let cancelled = false;
	if (membership && !ENDED.has(membership.status)) {
		if (!deps.payments)
			throw new ServiceUnavailableError(
				'Votre abonnement ne peut pas être résilié en ligne pour le moment : contactez-nous pour supprimer votre compte.'
			);
		try {
			await deps.payments.stripe.subscriptions.cancel(membership.stripeSubscriptionId);
			cancelled = true;
		} catch (error) {
			if ((error as { code?: string }).code !== 'resource_missing')
				throw new ServiceUnavailableError(
					`La résiliation de votre abonnement a échoué (${describePaymentError(error)}). Rien n’a été supprimé ; réessayez.`,
					60
				);
		}
	}
	// The files attached to their questions go with their threads (the rows cascade with the account).
	const attachments = await attachmentPathsOf(deps.db, userId);
	const attestationFiles = await deps.db.transaction(async (tx) => {
		await candidatures.anonymiseFor(tx, user);
		// Its attestation stays known by its code, withdrawn, with nothing of the person (its page says so).
		const files = await forgetAttestationsOf(tx, user.id);
		await deleteUser(tx, user.id);
		if (admin)
			await recordAudit(tx, admin, {
				kind: 'user.deleted',
				subjectType: 'user',
				subjectId: user.id,
				changes: {
					isAdmin: { before: user.isAdmin, after: null },
					subscriptionCancelled: { before: null, after: cancelled }
				}
			});
		return files;
	});
	await deleteAttestationFiles(attestationFiles);
	await deleteAttachmentFiles(attachments);
	inBackground(
		sendWith(deps.mail, {
			to: deps.adminEmail,
			template: 'account-deleted',
			...accountDeleted({ name: user.name, email: user.email }, cancelled, admin?.email ?? null)
		})
	);
	// Deleted by an admin: the person is told, at the address the account had.
	if (admin)
		inBackground(
			sendWith(deps.mail, {
				to: { name: user.name, address: user.email },
				template: 'account-deleted-by-admin',
				...securityNotices.accountDeletedByAdmin(user.name, { at: new Date(), device: null, network: null })
			})
		);
}

/** The webhook's request, verified with the official client (`constructEventAsync`, default 300 s tolerance). */
export async function receiveWebhook(
	deps: MembershipDeps,
	rawBody: string,
	signature: string | null
): Promise<EventOutcome> {
	if (!deps.payments)
		throw new ServiceUnavailableError(
			'Paiements désactivés : STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET et STRIPE_PRICE_ID ne sont pas configurés.'
		);
	if (!signature) throw new BadSignatureError('En-tête Stripe-Signature absent.');
	let event: Stripe.Event;
	try {
		event = await deps.payments.stripe.webhooks.constructEventAsync(
			rawBody,
			signature,
			deps.payments.webhookSecret
		);
	} catch (error) {
		throw new BadSignatureError(
			`Signature Stripe refusée : ${error instanceof Error ? error.message.split('\n')[0] : 'invalide'}`
		);
	}
	return applyEvent(deps, event);
}

export class BadSignatureError extends AppError {
	constructor(message: string) {
		super(400, message);
	}
}
