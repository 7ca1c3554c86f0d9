/** The memberships domain's SQL, and nothing else: each function takes the database or a transaction. */
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { memberships, stripeEvents, type Membership } from '../db/schema';

export type { Membership };

/**
 * Records an event id as applied, in the transaction that applies it; false when it was already there (a replay,
 * or a simultaneous delivery that won). An event found to be ignored is marked so before the transaction commits.
 */
export async function recordEvent(db: DbOrTx, id: string, type: string): Promise<boolean> {
	const inserted = await db
		.insert(stripeEvents)
		.values({ id, type, outcome: 'applied', processedAt: new Date() })
		.onConflictDoNothing()
		.returning({ id: stripeEvents.id });
	return inserted.length === 1;
}

export async function markEventIgnored(db: DbOrTx, id: string): Promise<void> {
	await db.update(stripeEvents).set({ outcome: 'ignored' }).where(eq(stripeEvents.id, id));
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
