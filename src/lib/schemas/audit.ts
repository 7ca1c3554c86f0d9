/** The « Activité » page's query string: every parameter through a schema, an invalid one dropped. */
import { z } from 'zod';
import { AUDIT_KIND_NAMES } from '$lib/audit';
import { dropInvalid } from './query';

export const auditQuerySchema = z.object({
	admin: dropInvalid(z.uuid()),
	type: dropInvalid(z.enum(AUDIT_KIND_NAMES)),
	du: dropInvalid(z.iso.date()),
	au: dropInvalid(z.iso.date()),
	page: dropInvalid(z.coerce.number().int().min(1).max(100_000))
});

export type AuditQuery = z.output<typeof auditQuerySchema>;
