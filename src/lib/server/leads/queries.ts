/** The leads domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, count, desc, eq, gte, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { leads, type Lead } from '../db/schema';

export type NewLead = typeof leads.$inferInsert;

export interface LeadFilters {
	kind?: 'contact' | 'devis';
	spam?: boolean;
	handled?: boolean;
	/** Only those whose notification failed and was never sent since. */
	notifyFailed?: boolean;
	from?: Date;
	to?: Date;
}

function where(filters: LeadFilters): SQL | undefined {
	const conditions: SQL[] = [];
	if (filters.kind) conditions.push(eq(leads.kind, filters.kind));
	// Written out (`not spam`), not bound as a parameter (`spam = $1`): a partial index (`where not spam and not
	// handled`) serves only a condition the planner can read.
	if (filters.spam !== undefined) conditions.push(filters.spam ? sql`${leads.spam}` : sql`not ${leads.spam}`);
	if (filters.handled !== undefined)
		conditions.push(filters.handled ? sql`${leads.handled}` : sql`not ${leads.handled}`);
	if (filters.notifyFailed) conditions.push(isNotNull(leads.notifyError), isNull(leads.notifiedAt));
	if (filters.from) conditions.push(gte(leads.createdAt, filters.from));
	// Exclusive: `to` is the start of the day after the last one asked for (dayRange).
	if (filters.to) conditions.push(lt(leads.createdAt, filters.to));
	return conditions.length ? and(...conditions) : undefined;
}

/**
 * Stores a lead unless the same one (kind, e-mail, message) arrived within `window`: then returns the first.
 * An advisory lock on the three makes "is it a duplicate?" and "store it" one step for simultaneous requests.
 */
export async function insertUnlessDuplicate(
	db: DbOrTx,
	values: NewLead & { email: string; message: string },
	window: string
): Promise<{ lead: Lead; previous: null } | { lead: null; previous: { id: string; spam: boolean } }> {
	return db.transaction(async (tx) => {
		await tx.execute(
			sql`select pg_advisory_xact_lock(hashtext(${`${values.kind}|${values.email}|${values.message}`}))`
		);
		const [previous] = await tx
			.select({ id: leads.id, spam: leads.spam })
			.from(leads)
			.where(
				and(
					eq(leads.kind, values.kind),
					eq(leads.email, values.email),
					eq(leads.message, values.message),
					gte(leads.createdAt, sql`now() - interval '${sql.raw(window)}'`)
				)
			)
			.orderBy(leads.createdAt)
			.limit(1);
		if (previous) return { lead: null, previous };
		const [lead] = await tx.insert(leads).values(values).returning();
		return { lead: lead!, previous: null };
	});
}

export async function recordNotification(
	db: DbOrTx,
	id: string,
	outcome: { sent: boolean; error: string | null }
) {
	await db
		.update(leads)
		.set(
			outcome.sent
				? { notifiedAt: new Date(), notifyError: null }
				: { notifyError: outcome.error ?? 'échec inconnu' }
		)
		.where(eq(leads.id, id));
}

export const selectLeads = (db: DbOrTx, filters: LeadFilters, limit?: number, offset = 0) => {
	const query = db.select().from(leads).where(where(filters)).orderBy(desc(leads.createdAt), desc(leads.id));
	return limit === undefined ? query : query.limit(limit).offset(offset);
};

/**
 * Where a walk through the leads, newest first, stopped: the last lead it gave, its time as PostgreSQL writes it
 * (to the microsecond: a JavaScript Date keeps milliseconds, and would skip the leads of the same millisecond).
 */
export interface LeadCursor {
	at: string;
	id: string;
}

/**
 * The next `limit` leads after `cursor` (older), newest first, each with its own cursor: a walk by keys through
 * `leads_created_at_idx`, so that the ten-thousandth batch costs what the first does (OFFSET reads every row it
 * skips).
 */
export const selectLeadsAfter = (
	db: DbOrTx,
	filters: LeadFilters,
	cursor: LeadCursor | null,
	limit: number
) =>
	db
		.select({ lead: leads, at: sql<string>`${leads.createdAt}::text` })
		.from(leads)
		.where(
			and(
				where(filters),
				cursor
					? sql`(${leads.createdAt}, ${leads.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
					: undefined
			)
		)
		.orderBy(desc(leads.createdAt), desc(leads.id))
		.limit(limit);

export async function countLeads(db: DbOrTx, filters: LeadFilters): Promise<number> {
	const [row] = await db.select({ n: count() }).from(leads).where(where(filters));
	return row?.n ?? 0;
}

/** The inbox's tabs, counted in one pass under the same type and date filters. */
export async function countTabs(
	db: DbOrTx,
	filters: Omit<LeadFilters, 'spam' | 'handled'>
): Promise<{ open: number; handled: number; spam: number; all: number }> {
	const [row] = await db
		.select({
			open: sql<number>`count(*) filter (where not ${leads.spam} and not ${leads.handled})`.mapWith(Number),
			handled: sql<number>`count(*) filter (where not ${leads.spam} and ${leads.handled})`.mapWith(Number),
			spam: sql<number>`count(*) filter (where ${leads.spam})`.mapWith(Number),
			all: count()
		})
		.from(leads)
		.where(where(filters));
	return row ?? { open: 0, handled: 0, spam: 0, all: 0 };
}

/** The newest leads that are not spam, for the dashboard. */
export const selectLatest = (db: DbOrTx, limit: number) =>
	db
		.select()
		.from(leads)
		.where(sql`not ${leads.spam}`)
		.orderBy(desc(leads.createdAt))
		.limit(limit);

/** Leads whose notification failed and was never sent since (spam is never notified: not a failure). */
export const FAILED_NOTIFICATIONS: LeadFilters = { spam: false, notifyFailed: true };

export async function findLead(db: DbOrTx, id: string): Promise<Lead | null> {
	const [lead] = await db.select().from(leads).where(eq(leads.id, id));
	return lead ?? null;
}

export async function updateHandled(db: DbOrTx, id: string, handled: boolean): Promise<void> {
	await db.update(leads).set({ handled }).where(eq(leads.id, id));
}

export async function clearSpamFlag(db: DbOrTx, id: string): Promise<Lead> {
	const [updated] = await db
		.update(leads)
		.set({ spam: false, spamReason: null })
		.where(eq(leads.id, id))
		.returning();
	return updated!;
}

export async function removeLead(db: DbOrTx, id: string): Promise<void> {
	await db.delete(leads).where(eq(leads.id, id));
}

export async function countOpen(db: DbOrTx): Promise<number> {
	const [row] = await db
		.select({ n: count() })
		.from(leads)
		.where(where({ spam: false, handled: false }));
	return row?.n ?? 0;
}

export async function deleteOlderThan(db: DbOrTx, cutoff: Date): Promise<number> {
	const deleted = await db.delete(leads).where(lt(leads.createdAt, cutoff)).returning({ id: leads.id });
	return deleted.length;
}
