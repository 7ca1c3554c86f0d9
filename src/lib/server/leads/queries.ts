/** The leads domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, asc, count, desc, eq, gte, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { cursorTime } from '../db/keyset';
import { rowsOf } from '../db/migrate';
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

/** The newest leads under `filters` (the inbox's pages walk by keys: selectLeadsAfter). */
export const selectLeads = (db: DbOrTx, filters: LeadFilters, limit?: number) => {
	const query = db.select().from(leads).where(where(filters)).orderBy(desc(leads.createdAt), desc(leads.id));
	return limit === undefined ? query : query.limit(limit);
};

/**
 * A lead's place in the newest-first order: its time in UTC to the microsecond (a JavaScript Date keeps
 * milliseconds, and would skip the leads of the same millisecond), and its id, which orders leads of the same
 * microsecond. Written as an address can carry it (`2026-03-01T08:00:00.000123Z`).
 */
export interface LeadCursor {
	at: string;
	id: string;
}

const cursorAt = cursorTime(leads.createdAt);
const olderThan = (cursor: LeadCursor) =>
	sql`(${leads.createdAt}, ${leads.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
const newerThan = (cursor: LeadCursor) =>
	sql`(${leads.createdAt}, ${leads.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;

/**
 * `limit` leads next to `cursor`, each with its own cursor, walked by keys through an index on the time (OFFSET
 * reads every row it skips: the ten-thousandth page would cost ten thousand times the first). `older`: the leads
 * after it, newest first (from the newest without a cursor); `newer`: the leads before it, oldest first (from the
 * oldest without a cursor) — the caller turns them round.
 */
export const selectLeadsAfter = (
	db: DbOrTx,
	filters: LeadFilters,
	cursor: LeadCursor | null,
	limit: number,
	direction: 'older' | 'newer' = 'older'
) =>
	db
		.select({ lead: leads, at: cursorAt })
		.from(leads)
		.where(
			and(
				where(filters),
				cursor ? (direction === 'older' ? olderThan(cursor) : newerThan(cursor)) : undefined
			)
		)
		.orderBy(
			...(direction === 'older'
				? [desc(leads.createdAt), desc(leads.id)]
				: [asc(leads.createdAt), asc(leads.id)])
		)
		.limit(limit);

export async function countLeads(db: DbOrTx, filters: LeadFilters): Promise<number> {
	const [row] = await db.select({ n: count() }).from(leads).where(where(filters));
	return row?.n ?? 0;
}

/**
 * The leads under `filters` (and newer than `newerThan`), counted up to `bound` + 1 and no further: what a page may
 * say of a list of years without reading all of it. More than `bound` reads as « plus de 10 000 ».
 */
const countedUpTo = (filters: LeadFilters, bound: number, newer?: LeadCursor) =>
	sql<number>`(select count(*) from (select 1 from ${leads} where ${and(where(filters), newer ? newerThan(newer) : undefined) ?? sql`true`} limit ${sql.raw(String(bound + 1))}) as bounded)::int`;

/** The inbox's tabs under the same type and date filters, each counted up to `bound` + 1, in one statement. */
export const countTabsStatement = (filters: Omit<LeadFilters, 'spam' | 'handled'>, bound: number) =>
	sql`select
		${countedUpTo({ ...filters, spam: false, handled: false }, bound)} as open,
		${countedUpTo({ ...filters, spam: false, handled: true }, bound)} as handled,
		${countedUpTo({ ...filters, spam: true }, bound)} as spam,
		${countedUpTo(filters, bound)} as all`;

export async function countTabs(
	db: DbOrTx,
	filters: Omit<LeadFilters, 'spam' | 'handled'>,
	bound: number
): Promise<{ open: number; handled: number; spam: number; all: number }> {
	const [row] = rowsOf<{ open: number; handled: number; spam: number; all: number }>(
		await db.execute(countTabsStatement(filters, bound))
	);
	return row!;
}

/** How many leads under `filters` come before `cursor` in the newest-first order, counted up to `bound` + 1. */
export async function countNewerUpTo(
	db: DbOrTx,
	filters: LeadFilters,
	cursor: LeadCursor,
	bound: number
): Promise<number> {
	const [row] = rowsOf<{ n: number }>(
		await db.execute(sql`select ${countedUpTo(filters, bound, cursor)} as n`)
	);
	return row!.n;
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
