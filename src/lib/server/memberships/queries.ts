/** The memberships domain's SQL, and nothing else: each function takes the database or a transaction. */
import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { rowsOf } from '../db/migrate';
import { memberships, stripeEvents, type Membership } from '../db/schema';

export type { Membership };

/**
 * Records an event id, in the transaction that applies it; false when it was already there (a replay, or a
 * simultaneous delivery that won). Recorded as applied unless said otherwise: an event found to be ignored in the
 * course of its transaction is marked so before it commits.
 */
export async function recordEvent(
	db: DbOrTx,
	id: string,
	type: string,
	outcome: 'applied' | 'ignored' = 'applied'
): Promise<boolean> {
	const inserted = await db
		.insert(stripeEvents)
		.values({ id, type, outcome, processedAt: new Date() })
		.onConflictDoNothing()
		.returning({ id: stripeEvents.id });
	return inserted.length === 1;
}

export async function markEventIgnored(db: DbOrTx, id: string): Promise<void> {
	await db.update(stripeEvents).set({ outcome: 'ignored' }).where(eq(stripeEvents.id, id));
}

/**
 * The candidatures a payment may be about: approved (waiting for the checkout) or already enrolled (the
 * subscription's later events), and never spam. `ourCandidature` (service.ts) and applySubscriptionState both read it.
 */
export const PAYABLE_STATUSES = ['approved', 'enrolled'] as const;
const PAYABLE_SQL = sql.raw(PAYABLE_STATUSES.map((status) => `'${status}'`).join(', '));

/** A subscription's state as Stripe told it at `at` (an event's `created`). */
export interface SubscriptionState {
	eventId: string;
	eventType: string;
	subscriptionId: string;
	/** Our candidature the subscription names (a valid uuid), for a subscription we have no membership of yet. */
	candidatureId: string | null;
	customerId: string | null;
	status: string;
	periodEnd: Date | null;
	at: Date;
}

/** In an upsert on memberships (`m`): whether the incoming state (`excluded`) is newer than the stored one. */
const NEWER = sql.raw(
	`(excluded.state_at > m.state_at or (excluded.state_at = m.state_at and excluded.status <> 'incomplete'))`
);

/**
 * One subscription event, recorded and applied in one statement (a webhook's round trip to the database, not six):
 * - the event id is inserted first; a replay, or a simultaneous delivery that lost the race (the insert waits for
 *   the winner's), inserts nothing, and nothing else happens: `duplicate`;
 * - the subscription's membership moves to the event's state only when it is newer than the stored one (same rule
 *   as `isNewer` in service.ts: a later Stripe time, or the same second and a settled state over "incomplete"); an
 *   older state only brings a period end the membership lacks;
 * - a subscription we have no membership of yet is kept only when it names one of our candidatures (PAYABLE_STATUSES,
 *   not spam; the row locked as `lockForPayment` does, against a checkout of the same candidature);
 * - two first events of one subscription at once: the second's insert meets the first's row, and moves it by the
 *   same rule (ON CONFLICT DO UPDATE sees the committed row);
 * - an event about nothing of ours is recorded as `ignored`, decided from the same snapshot as the effect.
 */
export async function applySubscriptionState(
	db: DbOrTx,
	state: SubscriptionState
): Promise<'applied' | 'ignored' | 'duplicate'> {
	const at = state.at.toISOString();
	const periodEnd = state.periodEnd?.toISOString() ?? null;
	const [row] = rowsOf<{ outcome: 'applied' | 'ignored' | null }>(
		await db.execute(sql`
			with existing as (
				select 1 from memberships where stripe_subscription_id = ${state.subscriptionId}
			), ours as (
				select id, user_id from candidatures
				where id = ${state.candidatureId}::uuid and not spam and status in (${PAYABLE_SQL})
					and not exists (select 1 from existing)
				for update
			), recorded as (
				insert into stripe_events (id, type, outcome, processed_at)
				values (
					${state.eventId}, ${state.eventType},
					case when exists (select 1 from existing) or exists (select 1 from ours) then 'applied' else 'ignored' end,
					now()
				)
				on conflict (id) do nothing
				returning outcome
			), moved as (
				insert into memberships as m
					(user_id, candidature_id, stripe_customer_id, stripe_subscription_id, status, current_period_end, state_at)
				select ours.user_id, ours.id, ${state.customerId}::text, ${state.subscriptionId}, ${state.status}::text,
					${periodEnd}::timestamptz, ${at}::timestamptz
				from recorded left join ours on true
				where recorded.outcome = 'applied'
				on conflict (stripe_subscription_id) do update set
					status = case when ${NEWER} then excluded.status else m.status end,
					state_at = case when ${NEWER} then excluded.state_at else m.state_at end,
					stripe_customer_id = case when ${NEWER}
						then coalesce(excluded.stripe_customer_id, m.stripe_customer_id) else m.stripe_customer_id end,
					current_period_end = case when ${NEWER}
						then coalesce(excluded.current_period_end, m.current_period_end)
						else coalesce(m.current_period_end, excluded.current_period_end) end
				returning 1
			)
			select outcome from recorded`)
	);
	return row?.outcome ?? 'duplicate';
}

export async function membershipBySubscription(db: DbOrTx, subscriptionId: string) {
	const [row] = await db
		.select()
		.from(memberships)
		.where(eq(memberships.stripeSubscriptionId, subscriptionId))
		.for('update');
	return row;
}

export async function insertMembership(db: DbOrTx, values: typeof memberships.$inferInsert): Promise<void> {
	// A simultaneous first event about the same subscription made it already: the caller's next event applies on it.
	await db.insert(memberships).values(values).onConflictDoNothing();
}

export async function updateMembership(
	db: DbOrTx,
	id: string,
	changes: Partial<typeof memberships.$inferInsert>
): Promise<void> {
	await db.update(memberships).set(changes).where(eq(memberships.id, id));
}

/** The user's most recent membership. */
export async function membershipOfUser(db: DbOrTx, userId: string): Promise<Membership | undefined> {
	const [row] = await db
		.select()
		.from(memberships)
		.where(eq(memberships.userId, userId))
		.orderBy(desc(memberships.stateAt))
		.limit(1);
	return row;
}
