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

/**
 * To the requester: a fixed text saying what happens next. It carries nothing the requester typed (no message,
 * no name, no company): anyone can put any address in the form, and an acknowledgement that repeated their
 * text would make the business's address a relay for whatever a stranger wants to send to that address.
 */
export function leadAcknowledgement(kind: LeadForMail['kind']): Rendered {
	const subject =
		kind === 'devis' ? 'Nous avons bien reçu votre demande de devis' : 'Nous avons bien reçu votre demande';
	const next =
		kind === 'devis'
			? 'Merci pour votre demande de devis. Nous l’étudions et vous rappelons sous 48 heures ouvrées pour convenir d’une visite du chantier.'
			: 'Merci pour votre demande d’audit. Nous l’étudions et revenons vers vous sous 48 heures ouvrées pour fixer un rendez-vous de 30 minutes.';
	const notYou =
		'Vous n’êtes pas à l’origine de cette demande ? Ignorez simplement cet e-mail : vous ne recevrez rien d’autre de notre part.';
	const signature = `L’équipe ${company.brand} — ${company.phone}`;
	return frame(
		subject,
		'Bonjour,',
		[next, notYou, signature].map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join(''),
		[next, notYou, signature].join('\n\n')
	);
}
