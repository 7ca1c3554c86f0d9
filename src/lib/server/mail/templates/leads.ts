import { company } from '$lib/content/company';
import { projectTypeLabel } from '$lib/schemas/leads';
import { button, escapeHtml, fieldsTable, frame, type Rendered } from './layout';

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

const KIND_LABEL = { contact: 'Demande d’audit', devis: 'Demande de devis maçonnerie' } as const;

const when = (date: Date) =>
	date.toLocaleString('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** To the business: every field, with Reply-To set to the requester by the caller. */
export function leadNotification(lead: LeadForMail, adminUrl: string): Rendered {
	const subject = `${KIND_LABEL[lead.kind]} de ${lead.name}${lead.city ? ` (${lead.city})` : ''}`;
	const table = fieldsTable([
		['Nom', lead.name],
		['E-mail', lead.email],
		['Téléphone', lead.phone],
		['Entreprise', lead.company],
		['Ville', lead.city],
		['Type de projet', projectTypeLabel(lead.projectType)],
		['Message', lead.message],
		['Reçue le', when(lead.createdAt)]
	]);
	return frame(
		subject,
		KIND_LABEL[lead.kind],
		`<p style="margin:0 0 16px">Une nouvelle demande est arrivée. Répondez directement à cet e-mail pour écrire à ${escapeHtml(lead.name)}.</p>${table.html}${button(adminUrl, 'Voir dans les demandes')}`,
		`Une nouvelle demande est arrivée. Répondez à cet e-mail pour écrire à ${lead.name}.\n\n${table.text}\n\nVoir dans les demandes : ${adminUrl}`
	);
}

/** To the requester: we have it, and when to expect an answer. */
export function leadAcknowledgement(lead: LeadForMail): Rendered {
	const subject =
		lead.kind === 'devis'
			? 'Nous avons bien reçu votre demande de devis'
			: 'Nous avons bien reçu votre demande';
	const body =
		lead.kind === 'devis'
			? 'Merci pour votre demande de devis. Nous vous rappelons sous 48 heures ouvrées pour convenir d’une visite.'
			: 'Merci pour votre demande d’audit. Nous revenons vers vous sous 48 heures ouvrées pour fixer un rendez-vous.';
	return frame(
		subject,
		`Bonjour ${lead.name},`,
		`<p style="margin:0 0 16px">${escapeHtml(body)}</p><p style="margin:0 0 16px">Pour rappel, votre message :</p><blockquote style="margin:0;padding:12px 16px;border-left:3px solid #e5e1d8;color:#4b5563">${escapeHtml(lead.message).replace(/\r?\n/g, '<br>')}</blockquote><p style="margin:16px 0 0">L’équipe ${escapeHtml(company.brand)} — ${escapeHtml(company.phone)}</p>`,
		`${body}\n\nPour rappel, votre message :\n\n${lead.message}\n\nL’équipe ${company.brand} — ${company.phone}`
	);
}
