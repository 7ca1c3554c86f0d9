/** The two e-mails of a lead: the notification to the business and the acknowledgement to the requester. */
import { dateTime } from '$lib/format';
import { projectTypeLabel } from '$lib/schemas/leads';
import { renderHtml, textFrame, type Rendered } from '../render';
import { agencySender, type MailSender } from '../sender';
import type { MailTheme } from '../theme';
import LeadAcknowledgement from './LeadAcknowledgement.svelte';
import LeadNotification from './LeadNotification.svelte';

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

const when = (date: Date) => dateTime(date, 'long');

/** To the business: every field, with Reply-To set to the requester by the caller. */
export function leadNotification(
	lead: LeadForMail,
	inboxUrl: string | null,
	theme: MailTheme = 'light',
	sender: MailSender = agencySender
): Rendered {
	// The subject is a header: one line, whatever the visitor typed.
	const subject = `${KIND_LABEL[lead.kind]} de ${lead.name}${lead.city ? ` (${lead.city})` : ''}`.replace(
		/\s+/g,
		' '
	);
	const heading = KIND_LABEL[lead.kind];
	const rows: [string, string | null | undefined][] = [
		['Nom', lead.name],
		['E-mail', lead.email],
		['Téléphone', lead.phone],
		['Entreprise', lead.company],
		['Ville', lead.city],
		['Type de projet', projectTypeLabel(lead.projectType)],
		['Message', lead.message],
		['Reçue le', when(lead.createdAt)]
	];
	const table = rows
		.filter(([, value]) => value)
		.map(([label, value]) => `${label} : ${value}`)
		.join('\n');
	return {
		subject,
		html: renderHtml(LeadNotification, {
			subject,
			heading,
			requester: lead.name,
			rows,
			inboxUrl,
			theme,
			sender
		}),
		text: textFrame(
			heading,
			`Une nouvelle demande est arrivée. Répondez à cet e-mail pour écrire à ${lead.name}.\n\n${table}${inboxUrl ? `\n\nVoir dans les demandes : ${inboxUrl}` : ''}`,
			sender.footer
		)
	};
}

const ACKNOWLEDGEMENT = {
	contact: {
		subject: 'Nous avons bien reçu votre demande',
		body: 'Merci pour votre demande d’audit. Nous revenons vers vous sous 48 heures ouvrées pour fixer un rendez-vous.'
	},
	devis: {
		subject: 'Nous avons bien reçu votre demande de devis',
		body: 'Merci pour votre demande de devis. Nous vous rappelons sous 48 heures ouvrées pour convenir d’une visite.'
	}
} as const;

/** To the requester: we have it, and when to expect an answer — and nothing of what they wrote. */
export function leadAcknowledgement(
	kind: LeadForMail['kind'],
	theme: MailTheme = 'light',
	sender: MailSender = agencySender
): Rendered {
	const { subject, body } = ACKNOWLEDGEMENT[kind];
	return {
		subject,
		html: renderHtml(LeadAcknowledgement, { subject, body, theme, sender }),
		text: textFrame(
			'Bonjour,',
			`${body}\n\nUne question d’ici là ? Appelez-nous au ${sender.phone}.\n\nL’équipe ${sender.brand}`,
			sender.footer
		)
	};
}
