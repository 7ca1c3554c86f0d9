/** The audit trail's SQL, and nothing else: each function takes the database or a transaction. */
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { auditEvents } from '../db/schema';

export type NewAuditEvent = typeof auditEvents.$inferInsert;

export async function insertAuditEvent(db: DbOrTx, values: NewAuditEvent): Promise<void> {
	await db.insert(auditEvents).values(values);
}

export interface AuditFilters {
	actorId?: string;
	kind?: string;
	/** Inclusive lower bound and exclusive upper bound. */
	from?: Date;
	to?: Date;
}

function auditWhere(filters: AuditFilters): SQL | undefined {
	return and(
		filters.actorId ? eq(auditEvents.actorId, filters.actorId) : undefined,
		filters.kind ? eq(auditEvents.kind, filters.kind) : undefined,
		filters.from ? gte(auditEvents.at, filters.from) : undefined,
		filters.to ? lt(auditEvents.at, filters.to) : undefined
	);
}

export async function countAuditEvents(db: DbOrTx, filters: AuditFilters): Promise<number> {
	const [row] = await db.select({ n: count() }).from(auditEvents).where(auditWhere(filters));
	return row?.n ?? 0;
}

export const selectAuditEvents = (db: DbOrTx, filters: AuditFilters, limit: number, offset: number) =>
	db
		.select()
		.from(auditEvents)
		.where(auditWhere(filters))
		.orderBy(desc(auditEvents.at), desc(auditEvents.id))
		.limit(limit)
		.offset(offset);

/** Everyone who appears in the trail, with the e-mail of their latest action (for the filter). */
export const selectActors = (db: DbOrTx) =>
	db
		.selectDistinctOn([auditEvents.actorId], { id: auditEvents.actorId, email: auditEvents.actorEmail })
		.from(auditEvents)
		.where(sql`${auditEvents.actorId} is not null`)
		.orderBy(auditEvents.actorId, desc(auditEvents.at));

/**
 * Deletes the rows older than `before`; the append-only trigger lets this one delete through, and only for rows
 * past three years, because the transaction says it is the retention's.
 */
export async function deleteAuditEventsBefore(db: DbOrTx, before: Date): Promise<number> {
	return db.transaction(async (tx) => {
		await tx.execute(sql`set local atelier.audit_retention = 'on'`);
		const deleted = await tx
			.delete(auditEvents)
			.where(lt(auditEvents.at, before))
			.returning({ id: auditEvents.id });
		return deleted.length;
	});
}
