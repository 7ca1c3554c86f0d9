/**
 * The audit trail (issue "Trust", point 3): who did what, when, to which record. Every admin action's domain
 * function calls `recordAudit` with its own transaction, so that the action and its row commit together or not at
 * all. What a row keeps of a change is the changed fields' before and after, never a secret or a person's free
 * text: each domain chooses the fields it passes (`changesOf`).
 */
import type { AuditKind } from '$lib/audit';
import type { AuditQuery } from '$lib/schemas/audit';
import { dayRange } from '$lib/schemas/query';
import type { DbOrTx } from '../db';
import * as queries from './queries';
import type { AuditFilters } from './queries';

/** Who acted: an admin (from `requireAdmin`), or a command run on the server (`CLI_ACTOR`). */
export interface Actor {
	id: string | null;
	email: string;
}

/** An admin signed in: the one kind of actor that decisions record by id (`candidatures.decided_by`). */
export type AdminActor = Actor & { id: string };

/** `npm run admin`: whoever has a shell on the server. */
export const CLI_ACTOR: Actor = { id: null, email: 'ligne de commande (npm run admin)' };

/** Another operator command (`npm run backup`, `npm run restore`), named as the trail shows it. */
export const commandActor = (command: string): Actor => ({
	id: null,
	email: `ligne de commande (${command})`
});

/** The server itself, on its schedule (BACKUP_SCHEDULE). */
export const SCHEDULE_ACTOR: Actor = { id: null, email: 'le serveur (sauvegarde planifiée)' };

export type Changes = Record<string, { before: unknown; after: unknown }>;

export interface AuditEntry {
	kind: AuditKind;
	subjectType: string;
	subjectId?: string | null;
	changes?: Changes | null;
}

export async function recordAudit(db: DbOrTx, actor: Actor, entry: AuditEntry): Promise<void> {
	await queries.insertAuditEvent(db, {
		actorId: actor.id,
		actorEmail: actor.email,
		kind: entry.kind,
		subjectType: entry.subjectType,
		subjectId: entry.subjectId ?? null,
		changes: entry.changes && Object.keys(entry.changes).length ? entry.changes : null
	});
}

const comparable = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** The named fields whose value differs between two versions of a record (dates as ISO strings). */
export function changesOf<T extends object>(
	before: Partial<T> | null | undefined,
	after: Partial<T> | null | undefined,
	fields: readonly (keyof T & string)[]
): Changes {
	const changes: Changes = {};
	for (const field of fields) {
		const was = comparable(before?.[field] ?? null);
		const is = comparable(after?.[field] ?? null);
		if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = { before: was, after: is };
	}
	return changes;
}

/** The page's query string as filters. */
export function auditFiltersOf(query: AuditQuery): AuditFilters {
	return { actorId: query.admin, kind: query.type, ...dayRange(query.du, query.au) };
}

export const AUDIT_PAGE_SIZE = 50;

/** One page of the trail, newest first (a page past the end shows the last one), with what the pager says. */
export async function auditPage(db: DbOrTx, filters: AuditFilters, page: number, pageSize = AUDIT_PAGE_SIZE) {
	const total = await queries.countAuditEvents(db, filters);
	const pages = Math.max(1, Math.ceil(total / pageSize));
	const current = Math.min(Math.max(1, page), pages);
	const events = await queries.selectAuditEvents(db, filters, pageSize, (current - 1) * pageSize);
	return { events, total, page: current, pages, pageSize };
}

export const auditActors = (db: DbOrTx) => queries.selectActors(db);

/** Kept three years (issue "Trust"): the retention job deletes what is older, and nothing else can. */
export const AUDIT_RETENTION_YEARS = 3;

export async function purgeOldAudit(db: DbOrTx, now = new Date()): Promise<number> {
	const before = new Date(now);
	before.setUTCFullYear(before.getUTCFullYear() - AUDIT_RETENTION_YEARS);
	return queries.deleteAuditEventsBefore(db, before);
}

export type { AuditFilters };
