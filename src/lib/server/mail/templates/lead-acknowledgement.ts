import { renderHtml, textFrame, type Rendered } from '../render';
import { agencySender, type MailSender } from '../sender';
import type { MailTheme } from '../theme';
import LeadAcknowledgement from './LeadAcknowledgement.svelte';
import type { LeadForMail } from './lead-for-mail';

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
