/**
 * The audit trail: its whole public surface, bound to the application's services (app.ts). Writing a row is not
 * here: each domain writes its own, in the transaction of the action (service.ts `recordAudit`).
 */
import type { AuditQuery } from '$lib/schemas/audit';
import { appDeps } from '../app';
import * as service from './service';

const db = () => appDeps().db;

export const page = (query: AuditQuery) =>
	service.auditPage(db(), service.auditFiltersOf(query), query.page ?? 1);
export const actors = () => service.auditActors(db());
export const purgeOld = () => service.purgeOldAudit(db());

/** What the other domains use to write their rows, in the transaction of their action. */
export { recordAudit, changesOf, CLI_ACTOR, SCHEDULE_ACTOR, commandActor } from './service';
export type { Actor, AdminActor, Changes } from './service';
