/** A lead as its two e-mails see it (lead-notification.ts, lead-acknowledgement.ts). */
import { dateTime } from '$lib/format';

export interface LeadForMail {
	kind: 'contact' | 'devis';
	name: string;
	email: string;
	phone?: string | null;
	company?: string | null;
	city?: string | null;
	projectType?: string | null;
	message: string;
	createdAt: Date;
}

export const KIND_LABEL = { contact: 'Demande d’audit', devis: 'Demande de devis maçonnerie' } as const;

export const when = (date: Date) => dateTime(date, 'long');
