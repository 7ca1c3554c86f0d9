/** The log of e-mails' SQL: one row an e-mail, sent or failed (send.ts writes it; the admin's /admin/emails reads it). */
import type { DbOrTx } from '../db';
import { emails } from '../db/schema';

export async function insertEmailRecord(
	db: DbOrTx,
	record: { to: string; subject: string; template: string; error: string | null; sentAt: Date | null }
): Promise<void> {
	await db.insert(emails).values({ ...record, status: record.sentAt ? 'sent' : 'failed' });
}
