/**
 * Every e-mail the service sends, with sample data, for the admin previews (/admin/emails). A new template is
 * one entry here: the preview page, its light and dark renderings and its test follow.
 */
import type { Rendered } from '../render';
import type { MailTheme } from '../theme';
import { leadAcknowledgement, leadNotification, type LeadForMail } from './leads';

export interface MailPreview {
	/** Stable name, as recorded in the `emails` table's `template` column (without the lead kind suffix). */
	name: string;
	label: string;
	/** Who receives it. */
	audience: 'entreprise' | 'visiteur' | 'candidat' | 'membre';
	render(theme: MailTheme): Rendered;
}

const SAMPLE_INBOX = 'https://exemple.fr/admin/demandes';
const sampleLead = (kind: LeadForMail['kind']): LeadForMail => ({
	kind,
	name: 'Claire Dupont',
	email: 'claire.dupont@example.com',
	phone: '06 12 34 56 78',
	company: kind === 'contact' ? 'Dupont Rénovation' : null,
	city: kind === 'devis' ? 'Villeurbanne' : null,
	projectType: kind === 'devis' ? 'muret' : null,
	message:
		kind === 'devis'
			? 'Bonjour,\nJe souhaite faire construire un muret de 12 m en pierre le long de mon jardin.'
			: 'Bonjour,\nJe voudrais un site qui m’apporte des demandes de devis dans ma région.',
	createdAt: new Date('2026-03-02T09:30:00Z')
});

export const MAIL_PREVIEWS: readonly MailPreview[] = [
	{
		name: 'lead-notification-contact',
		label: 'Nouvelle demande d’audit (à l’entreprise)',
		audience: 'entreprise',
		render: (theme) => leadNotification(sampleLead('contact'), SAMPLE_INBOX, theme)
	},
	{
		name: 'lead-notification-devis',
		label: 'Nouvelle demande de devis (à l’entreprise)',
		audience: 'entreprise',
		render: (theme) => leadNotification(sampleLead('devis'), SAMPLE_INBOX, theme)
	},
	{
		name: 'lead-acknowledgement-contact',
		label: 'Accusé de réception d’une demande d’audit',
		audience: 'visiteur',
		render: (theme) => leadAcknowledgement('contact', theme)
	},
	{
		name: 'lead-acknowledgement-devis',
		label: 'Accusé de réception d’une demande de devis',
		audience: 'visiteur',
		render: (theme) => leadAcknowledgement('devis', theme)
	}
];

export const mailPreview = (name: string) => MAIL_PREVIEWS.find((preview) => preview.name === name) ?? null;
