/**
 * Every e-mail the service sends, with sample data, for the admin previews (/admin/emails). A new template is
 * one entry here: the preview page, its light and dark renderings and its test follow.
 */
import type { Rendered } from '../render';
import type { MailTheme } from '../theme';
import { accountDeleted } from './account-deleted';
import { attestationIssued } from './attestation-issued';
import { backupFailed } from './backup-failed';
import { courseReminder } from './course-reminder';
import { coldSurvey, questionAnswered, questionAsked } from './training';
import type { CandidatureForMail } from './candidature-answers';
import { candidatureApproval } from './candidature-approval';
import { candidatureConfirmation } from './candidature-confirmation';
import { candidatureNotification } from './candidature-notification';
import { candidatureRejection } from './candidature-rejection';
import { emailChangeConfirmation } from './email-change-confirmation';
import { emailChanged } from './email-changed';
import { leadAcknowledgement } from './lead-acknowledgement';
import type { LeadForMail } from './lead-for-mail';
import { leadNotification } from './lead-notification';
import { memberWelcome } from './member-welcome';
import { passwordReset } from './password-reset';
import * as security from './security-notices';

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

const sampleCandidature: CandidatureForMail = {
	id: '5b1d6c2e-8f3a-4d7e-9b1c-2a3e4f5a6b7c',
	firstName: 'Julien',
	lastName: 'Morel',
	email: 'julien.morel@example.com',
	phone: '+33612345678',
	postalCode: '69400',
	city: 'Villefranche-sur-Saône',
	trade: 'macon',
	company: 'Morel Maçonnerie',
	siret: '73282932000074',
	yearsExperience: 12,
	teamSize: 3,
	currentSite: null,
	goals: ['demandes', 'autonomie'],
	presence: ['google'],
	hoursPerWeek: 3,
	motivation:
		'Je veux que mes clients me trouvent en ligne sans passer par des plateformes qui prennent une commission.',
	createdAt: new Date('2026-03-02T09:30:00Z')
};
const SAMPLE_CIRCUMSTANCES: security.Circumstances = {
	at: new Date('2026-03-02T09:30:00Z'),
	device: 'Firefox sur Linux',
	network: 'réseau 203.0.113.0/24'
};
const SAMPLE_PAYMENT_LINK = 'https://exemple.fr/paiement/exemple';

/** One e-mail of the catalogue: who receives it, its stable name, its label, and how to render a sample of it. */
const preview = (
	audience: MailPreview['audience'],
	name: string,
	label: string,
	render: MailPreview['render']
): MailPreview => ({ name, label, audience, render });

export const MAIL_PREVIEWS: readonly MailPreview[] = [
	preview('entreprise', 'lead-notification-contact', 'Nouvelle demande d’audit (à l’entreprise)', (theme) =>
		leadNotification(sampleLead('contact'), SAMPLE_INBOX, theme)
	),
	preview('entreprise', 'lead-notification-devis', 'Nouvelle demande de devis (à l’entreprise)', (theme) =>
		leadNotification(sampleLead('devis'), SAMPLE_INBOX, theme)
	),
	preview('visiteur', 'lead-acknowledgement-contact', 'Accusé de réception d’une demande d’audit', (theme) =>
		leadAcknowledgement('contact', theme)
	),
	preview('visiteur', 'lead-acknowledgement-devis', 'Accusé de réception d’une demande de devis', (theme) =>
		leadAcknowledgement('devis', theme)
	),
	preview('candidat', 'candidature-confirmation', 'Candidature reçue (au candidat)', (theme) =>
		candidatureConfirmation(sampleCandidature, theme)
	),
	preview('entreprise', 'candidature-notification', 'Nouvelle candidature (à l’entreprise)', (theme) =>
		candidatureNotification(sampleCandidature, 'https://exemple.fr/admin/candidatures', theme)
	),
	preview('membre', 'attestation-issued', 'Attestation de fin de formation délivrée (au membre)', (theme) =>
		attestationIssued(
			'Julien',
			'Programme Artisan en ligne',
			{
				download: 'https://exemple.fr/bilan/attestation.pdf',
				verify: 'https://exemple.fr/attestation/k7q3m2x9w4t6b8n5c1v0z3r2pa'
			},
			theme
		)
	),
	preview(
		'membre',
		'course-reminder',
		'Rappel « Reprenez là où vous en étiez » (au membre, après 7 jours sans progrès)',
		(theme) =>
			courseReminder(
				'Julien',
				{ title: 'Filmer un chantier', url: 'https://exemple.fr/cours/filmer-un-chantier', resumeAt: 252 },
				{ completed: 2, total: 6 },
				'https://exemple.fr/rappels/exemple',
				theme
			)
	),
	preview(
		'entreprise',
		'question-asked',
		'Question d’un membre au formateur (aux administrateurs)',
		(theme) =>
			questionAsked(
				'Julien Moreau',
				'Filmer un chantier',
				'https://exemple.fr/admin/questions/exemple',
				2,
				theme
			)
	),
	preview('membre', 'question-answered', 'Réponse du formateur (au membre)', (theme) =>
		questionAnswered('Julien', 'Filmer un chantier', 'https://exemple.fr/questions/exemple', theme)
	),
	preview(
		'membre',
		'satisfaction-cold',
		'Questionnaire à froid (au membre, quelques semaines après la fin)',
		(theme) => coldSurvey('Julien', 'https://exemple.fr/avis/exemple', false, theme)
	),
	preview(
		'membre',
		'satisfaction-cold-reminder',
		'Rappel du questionnaire à froid (au membre, 7 jours après)',
		(theme) => coldSurvey('Julien', 'https://exemple.fr/avis/exemple', true, theme)
	),
	preview(
		'candidat',
		'candidature-approval',
		'Candidature acceptée, lien de paiement (au candidat)',
		(theme) => candidatureApproval(sampleCandidature, SAMPLE_PAYMENT_LINK, theme)
	),
	preview('candidat', 'candidature-rejection', 'Candidature refusée (au candidat)', (theme) =>
		candidatureRejection(sampleCandidature, 'Votre zone est déjà couverte.', theme)
	),
	preview('membre', 'member-welcome', 'Bienvenue, choix du mot de passe (au nouveau membre)', (theme) =>
		memberWelcome('Julien', 'https://exemple.fr/mot-de-passe/exemple', theme)
	),
	preview('membre', 'password-reset', 'Mot de passe oublié (au membre)', (theme) =>
		passwordReset('Julien Morel', 'https://exemple.fr/mot-de-passe/exemple', theme)
	),
	preview(
		'membre',
		'email-change',
		'Confirmation d’une nouvelle adresse (au membre, à la nouvelle adresse)',
		(theme) => emailChangeConfirmation('Julien Morel', 'https://exemple.fr/profil/adresse/exemple', theme)
	),
	preview('membre', 'email-changed', 'Adresse changée (au membre, à l’ancienne adresse)', (theme) =>
		emailChanged('Julien Morel', 'julien@nouvelle-adresse.fr', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('entreprise', 'account-deleted', 'Compte supprimé (à l’entreprise)', (theme) =>
		accountDeleted({ name: 'Julien Morel', email: 'julien.morel@example.com' }, true, null, theme)
	),
	preview(
		'entreprise',
		'account-deleted-by-admin-notification',
		'Compte supprimé par un administrateur (à l’entreprise)',
		(theme) =>
			accountDeleted(
				{ name: 'Julien Morel', email: 'julien.morel@example.com' },
				false,
				'claire@exemple.fr',
				theme
			)
	),
	preview('membre', 'second-factor-enabled', 'Double authentification activée (au membre)', (theme) =>
		security.secondFactorEnabled('Julien Morel', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview(
		'membre',
		'second-factor-disabled',
		'Double authentification désactivée par son titulaire (au membre)',
		(theme) => security.secondFactorDisabled('Julien Morel', 'owner', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview(
		'membre',
		'second-factor-removed',
		'Double authentification retirée par un administrateur (au membre)',
		(theme) => security.secondFactorDisabled('Julien Morel', 'admin', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('membre', 'recovery-code-used', 'Code de secours utilisé (au membre)', (theme) =>
		security.recoveryCodeUsed('Julien Morel', 7, SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('membre', 'recovery-codes-renewed', 'Nouveaux codes de secours (au membre)', (theme) =>
		security.recoveryCodesRenewed('Julien Morel', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('membre', 'admin-granted', 'Droits d’administrateur donnés (à la personne)', (theme) =>
		security.adminRightsChanged('Julien Morel', true, 'claire@exemple.fr', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('membre', 'admin-revoked', 'Droits d’administrateur retirés (à la personne)', (theme) =>
		security.adminRightsChanged('Julien Morel', false, 'claire@exemple.fr', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('membre', 'password-changed', 'Mot de passe changé (au membre)', (theme) =>
		security.passwordChanged('Julien Morel', 'profile', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('membre', 'password-reset-done', 'Mot de passe choisi par un lien (au membre)', (theme) =>
		security.passwordChanged('Julien Morel', 'link', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview(
		'membre',
		'account-deleted-by-admin',
		'Compte supprimé par un administrateur (à la personne)',
		(theme) => security.accountDeletedByAdmin('Julien Morel', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview('entreprise', 'backup-downloaded', 'Sauvegarde téléchargée (à chaque administrateur)', (theme) =>
		security.backupDownloaded('Claire Dupont', 'claire@exemple.fr', SAMPLE_CIRCUMSTANCES, theme)
	),
	preview(
		'entreprise',
		'backup-failed',
		'Sauvegarde automatique en échec (à chaque administrateur)',
		(theme) =>
			backupFailed(
				'Claire Dupont',
				{
					at: SAMPLE_CIRCUMSTANCES.at,
					cause: 'le stockage S3 des sauvegardes a refusé la clé d’accès (InvalidAccessKeyId)',
					lastGood: new Date(SAMPLE_CIRCUMSTANCES.at.getTime() - 86_400_000)
				},
				'https://exemple.fr/admin/sauvegarde',
				theme
			)
	),
	preview('membre', 'device-link', 'Reconnaître ce navigateur (au membre, pendant une attaque)', (theme) =>
		security.deviceLink(
			'Julien Morel',
			'https://exemple.fr/login/navigateur/exemple',
			SAMPLE_CIRCUMSTANCES,
			theme
		)
	)
];

export const mailPreview = (name: string) => MAIL_PREVIEWS.find((preview) => preview.name === name) ?? null;
