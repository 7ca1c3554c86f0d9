import { projectTypeLabel } from '$lib/schemas/leads';
import { renderHtml, textFrame, type Rendered } from '../render';
import { agencySender, type MailSender } from '../sender';
import type { MailTheme } from '../theme';
import LeadNotification from './LeadNotification.svelte';
import { KIND_LABEL, when, type LeadForMail } from './lead-for-mail';

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
