/** The audit trail's SQL, and nothing else: each function takes the database or a transaction. */
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { auditEvents, candidatures, leads, modules, users } from '../db/schema';

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

/**
 * What the page names a row's subject and actor by (issue "Trust, part 2", point 10): the account's name and
 * e-mail, the module's title, the candidate's or the sender's name — read now, so null once it was deleted (the
 * page then shows the id the row keeps).
 */
/**
 * The row's subject id as a uuid, or null when it is not one (a slot's key, a backup's name): compared with each
 * table's primary key as it is, so that the key's index finds the row — a cast of the key to text (`id::text =
 * subject_id`) read every row of the table, once per row of the trail (issue « Years of use »).
 */
const subjectUuid = sql`(case when ${auditEvents.subjectId} ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then ${auditEvents.subjectId}::uuid end)`;
const subjectName = sql<string | null>`case ${auditEvents.subjectType}
	when 'user' then (select ${users.name} || ' (' || ${users.email} || ')' from ${users} where ${users.id} = ${subjectUuid})
	when 'module' then (select ${modules.title} from ${modules} where ${modules.id} = ${subjectUuid})
	when 'candidature' then (select ${candidatures.firstName} || ' ' || ${candidatures.lastName} from ${candidatures} where ${candidatures.id} = ${subjectUuid})
	when 'lead' then (select ${leads.name} from ${leads} where ${leads.id} = ${subjectUuid})
	end`;
const actorName = sql<
	string | null
>`(select ${users.name} from ${users} where ${users.id} = ${auditEvents.actorId})`;

export const selectAuditEvents = (db: DbOrTx, filters: AuditFilters, limit: number, offset: number) =>
	db
		.select({
			id: auditEvents.id,
			at: auditEvents.at,
			actorId: auditEvents.actorId,
			actorEmail: auditEvents.actorEmail,
			actorName,
			kind: auditEvents.kind,
			subjectType: auditEvents.subjectType,
			subjectId: auditEvents.subjectId,
			subjectName,
			changes: auditEvents.changes
		})
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
