/** The candidatures domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { CandidatureStatus } from '$lib/schemas/candidature';
import type { DbOrTx } from '../db';
import { candidatureDrafts, candidatures, type Candidature } from '../db/schema';

export type { Candidature };
export type NewCandidature = typeof candidatures.$inferInsert;

export interface CandidatureFilters {
	status?: CandidatureStatus;
	trade?: string;
	search?: string;
	from?: Date;
	/** Exclusive. */
	to?: Date;
}

/** `%`, `_` and `\` typed by an admin are searched for as themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function where(filters: CandidatureFilters, withStatus = true): SQL | undefined {
	const conditions: SQL[] = [eq(candidatures.spam, false)];
	if (withStatus && filters.status) conditions.push(eq(candidatures.status, filters.status));
	if (filters.trade) conditions.push(eq(candidatures.trade, filters.trade));
	if (filters.from) conditions.push(gte(candidatures.createdAt, filters.from));
	if (filters.to) conditions.push(lt(candidatures.createdAt, filters.to));
	if (filters.search) {
		const pattern = likePattern(filters.search);
		conditions.push(
			or(
				ilike(candidatures.firstName, pattern),
				ilike(candidatures.lastName, pattern),
				ilike(sql`${candidatures.firstName} || ' ' || ${candidatures.lastName}`, pattern),
				ilike(candidatures.email, pattern),
				ilike(candidatures.company, pattern)
			)!
		);
	}
	return and(...conditions);
}

/** Throws PostgreSQL's unique violation (23505) while the e-mail has a pending or approved candidature. */
export async function insertCandidature(db: DbOrTx, values: NewCandidature): Promise<Candidature> {
	const [row] = await db.insert(candidatures).values(values).returning();
	return row!;
}

export const selectCandidature = async (db: DbOrTx, id: string): Promise<Candidature | undefined> =>
	(await db.select().from(candidatures).where(eq(candidatures.id, id)))[0];

/** One page, newest first, and the total that matches. */
export async function selectPage(db: DbOrTx, filters: CandidatureFilters, limit: number, offset: number) {
	const [rows, [total]] = await Promise.all([
		db
			.select()
			.from(candidatures)
			.where(where(filters))
			.orderBy(desc(candidatures.createdAt), desc(candidatures.id))
			.limit(limit)
			.offset(offset),
		db.select({ n: count() }).from(candidatures).where(where(filters))
	]);
	return { rows, total: total?.n ?? 0 };
}

/** How many match the other filters, per status (the tabs' counts). */
export async function countByStatus(
	db: DbOrTx,
	filters: CandidatureFilters = {}
): Promise<Record<CandidatureStatus, number>> {
	const rows = await db
		.select({ status: candidatures.status, n: count() })
		.from(candidatures)
		.where(where(filters, false))
		.groupBy(candidatures.status);
	const counts = { pending: 0, approved: 0, rejected: 0, enrolled: 0 };
	for (const row of rows) counts[row.status] = row.n;
	return counts;
}

/**
 * Moves a candidature from `from` to `to` with the given changes, only if it is still in `from`: of two
 * simultaneous decisions, exactly one gets the row back.
 */
export async function transition(
	db: DbOrTx,
	id: string,
	from: CandidatureStatus,
	changes: Partial<NewCandidature>
): Promise<Candidature | undefined> {
	const [row] = await db
		.update(candidatures)
		.set(changes)
		.where(and(eq(candidatures.id, id), eq(candidatures.status, from)))
		.returning();
	return row;
}

export async function recordNotification(db: DbOrTx, id: string, error: string | null): Promise<void> {
	await db
		.update(candidatures)
		.set(error ? { notifyError: error } : { notifiedAt: new Date(), notifyError: null })
		.where(eq(candidatures.id, id));
}

/**
 * Takes the next checkout attempt number, unless another request took `seen + 1` already: then that number
 * is returned too, so that both share one idempotency key (and Stripe one session).
 */
export async function nextCheckoutAttempt(db: DbOrTx, id: string, seen: number): Promise<number> {
	await db
		.update(candidatures)
		.set({ checkoutAttempt: seen + 1 })
		.where(and(eq(candidatures.id, id), eq(candidatures.checkoutAttempt, seen)));
	return seen + 1;
}

export async function recordCheckout(
	db: DbOrTx,
	id: string,
	attempt: number,
	session: { id: string; url: string | null }
): Promise<void> {
	await db
		.update(candidatures)
		.set({ checkoutSessionId: session.id, checkoutUrl: session.url })
		.where(and(eq(candidatures.id, id), eq(candidatures.checkoutAttempt, attempt)));
}

export async function readDraft(db: DbOrTx, id: string, notBefore: Date) {
	const [row] = await db
		.select()
		.from(candidatureDrafts)
		.where(and(eq(candidatureDrafts.id, id), gte(candidatureDrafts.updatedAt, notBefore)));
	return row?.answers ?? null;
}

/** Writes the draft; true when it is a new one (PostgreSQL's `xmax` is 0 on a row the upsert inserted). */
export async function writeDraft(db: DbOrTx, id: string, answers: Record<string, unknown>): Promise<boolean> {
	const now = new Date();
	const [row] = await db
		.insert(candidatureDrafts)
		.values({ id, answers, updatedAt: now })
		.onConflictDoUpdate({ target: candidatureDrafts.id, set: { answers, updatedAt: now } })
		.returning({ inserted: sql<boolean>`(xmax = 0)` });
	return row?.inserted === true;
}

export async function deleteDraft(db: DbOrTx, id: string): Promise<void> {
	await db.delete(candidatureDrafts).where(eq(candidatureDrafts.id, id));
}

export async function deleteDraftsBefore(db: DbOrTx, before: Date): Promise<number> {
	const deleted = await db
		.delete(candidatureDrafts)
		.where(lt(candidatureDrafts.updatedAt, before))
		.returning({ id: candidatureDrafts.id });
	return deleted.length;
}

/** The candidature, locked until the transaction ends (two events about it apply one after the other). */
export async function candidatureForUpdate(db: DbOrTx, id: string): Promise<Candidature | undefined> {
	const [row] = await db.select().from(candidatures).where(eq(candidatures.id, id)).for('update');
	return row;
}

/** The payer's account is made: the candidature is enrolled and names it. */
export async function enrol(db: DbOrTx, candidatureId: string, userId: string): Promise<void> {
	await db.update(candidatures).set({ status: 'enrolled', userId }).where(eq(candidatures.id, candidatureId));
}

/** RGPD: what the candidature said about the person is blanked; its decision history stays. */
export async function anonymiseCandidatures(db: DbOrTx, userId: string, email: string): Promise<void> {
	await db
		.update(candidatures)
		.set({
			firstName: '—',
			lastName: '—',
			email: sql`'supprime-' || ${candidatures.id} || '@invalid'`,
			phone: '',
			postalCode: '',
			city: '',
			company: '—',
			siret: '',
			currentSite: null,
			motivation: '',
			tradeOther: null,
			rejectionReason: null,
			userId: null
		})
		.where(and(sql`(${candidatures.userId} = ${userId} or ${candidatures.email} = ${email})`));
}
