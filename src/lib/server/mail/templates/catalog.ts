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
	},
	{
		name: 'candidature-confirmation',
		label: 'Candidature reçue (au candidat)',
		audience: 'candidat',
		render: (theme) => candidatureConfirmation(sampleCandidature, theme)
	},
	{
		name: 'candidature-notification',
		label: 'Nouvelle candidature (à l’entreprise)',
		audience: 'entreprise',
		render: (theme) =>
			candidatureNotification(sampleCandidature, 'https://exemple.fr/admin/candidatures', theme)
	},
	{
		name: 'attestation-issued',
		label: 'Attestation de fin de formation délivrée (au membre)',
		audience: 'membre',
		render: (theme) =>
			attestationIssued(
				'Julien',
				'Programme Artisan en ligne',
				{
					download: 'https://exemple.fr/bilan/attestation.pdf',
					verify: 'https://exemple.fr/attestation/k7q3m2x9w4t6b8n5c1v0z3r2pa'
				},
				theme
			)
	},
	{
		name: 'course-reminder',
		label: 'Rappel « Reprenez là où vous en étiez » (au membre, après 7 jours sans progrès)',
		audience: 'membre',
		render: (theme) =>
			courseReminder(
				'Julien',
				{ title: 'Filmer un chantier', url: 'https://exemple.fr/cours/filmer-un-chantier', resumeAt: 252 },
				{ completed: 2, total: 6 },
				'https://exemple.fr/rappels/exemple',
				theme
			)
	},
	{
		name: 'question-asked',
		label: 'Question d’un membre au formateur (aux administrateurs)',
		audience: 'entreprise',
		render: (theme) =>
			questionAsked(
				'Julien Moreau',
				'Filmer un chantier',
				'https://exemple.fr/admin/questions/exemple',
				2,
				theme
			)
	},
	{
		name: 'question-answered',
		label: 'Réponse du formateur (au membre)',
		audience: 'membre',
		render: (theme) =>
			questionAnswered('Julien', 'Filmer un chantier', 'https://exemple.fr/questions/exemple', theme)
	},
	{
		name: 'satisfaction-cold',
		label: 'Questionnaire à froid (au membre, quelques semaines après la fin)',
		audience: 'membre',
		render: (theme) => coldSurvey('Julien', 'https://exemple.fr/avis/exemple', false, theme)
	},
	{
		name: 'satisfaction-cold-reminder',
		label: 'Rappel du questionnaire à froid (au membre, 7 jours après)',
		audience: 'membre',
		render: (theme) => coldSurvey('Julien', 'https://exemple.fr/avis/exemple', true, theme)
	},
	{
		name: 'candidature-approval',
		label: 'Candidature acceptée, lien de paiement (au candidat)',
		audience: 'candidat',
		render: (theme) => candidatureApproval(sampleCandidature, SAMPLE_PAYMENT_LINK, theme)
	},
	{
		name: 'candidature-rejection',
		label: 'Candidature refusée (au candidat)',
		audience: 'candidat',
		render: (theme) => candidatureRejection(sampleCandidature, 'Votre zone est déjà couverte.', theme)
	},
	{
		name: 'member-welcome',
		label: 'Bienvenue, choix du mot de passe (au nouveau membre)',
		audience: 'membre',
		render: (theme) => memberWelcome('Julien', 'https://exemple.fr/mot-de-passe/exemple', theme)
	},
	{
		name: 'password-reset',
		label: 'Mot de passe oublié (au membre)',
		audience: 'membre',
		render: (theme) => passwordReset('Julien Morel', 'https://exemple.fr/mot-de-passe/exemple', theme)
	},
	{
		name: 'email-change',
		label: 'Confirmation d’une nouvelle adresse (au membre, à la nouvelle adresse)',
		audience: 'membre',
		render: (theme) =>
			emailChangeConfirmation('Julien Morel', 'https://exemple.fr/profil/adresse/exemple', theme)
	},
	{
		name: 'email-changed',
		label: 'Adresse changée (au membre, à l’ancienne adresse)',
		audience: 'membre',
		render: (theme) => emailChanged('Julien Morel', 'julien@nouvelle-adresse.fr', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'account-deleted',
		label: 'Compte supprimé (à l’entreprise)',
		audience: 'entreprise',
		render: (theme) =>
			accountDeleted({ name: 'Julien Morel', email: 'julien.morel@example.com' }, true, null, theme)
	},
	{
		name: 'account-deleted-by-admin-notification',
		label: 'Compte supprimé par un administrateur (à l’entreprise)',
		audience: 'entreprise',
		render: (theme) =>
			accountDeleted(
				{ name: 'Julien Morel', email: 'julien.morel@example.com' },
				false,
				'claire@exemple.fr',
				theme
			)
	},
	{
		name: 'second-factor-enabled',
		label: 'Double authentification activée (au membre)',
		audience: 'membre',
		render: (theme) => security.secondFactorEnabled('Julien Morel', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'second-factor-disabled',
		label: 'Double authentification désactivée par son titulaire (au membre)',
		audience: 'membre',
		render: (theme) => security.secondFactorDisabled('Julien Morel', 'owner', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'second-factor-removed',
		label: 'Double authentification retirée par un administrateur (au membre)',
		audience: 'membre',
		render: (theme) => security.secondFactorDisabled('Julien Morel', 'admin', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'recovery-code-used',
		label: 'Code de secours utilisé (au membre)',
		audience: 'membre',
		render: (theme) => security.recoveryCodeUsed('Julien Morel', 7, SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'recovery-codes-renewed',
		label: 'Nouveaux codes de secours (au membre)',
		audience: 'membre',
		render: (theme) => security.recoveryCodesRenewed('Julien Morel', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'admin-granted',
		label: 'Droits d’administrateur donnés (à la personne)',
		audience: 'membre',
		render: (theme) =>
			security.adminRightsChanged('Julien Morel', true, 'claire@exemple.fr', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'admin-revoked',
		label: 'Droits d’administrateur retirés (à la personne)',
		audience: 'membre',
		render: (theme) =>
			security.adminRightsChanged('Julien Morel', false, 'claire@exemple.fr', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'password-changed',
		label: 'Mot de passe changé (au membre)',
		audience: 'membre',
		render: (theme) => security.passwordChanged('Julien Morel', 'profile', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'password-reset-done',
		label: 'Mot de passe choisi par un lien (au membre)',
		audience: 'membre',
		render: (theme) => security.passwordChanged('Julien Morel', 'link', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'account-deleted-by-admin',
		label: 'Compte supprimé par un administrateur (à la personne)',
		audience: 'membre',
		render: (theme) => security.accountDeletedByAdmin('Julien Morel', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'backup-downloaded',
		label: 'Sauvegarde téléchargée (à chaque administrateur)',
		audience: 'entreprise',
		render: (theme) =>
			security.backupDownloaded('Claire Dupont', 'claire@exemple.fr', SAMPLE_CIRCUMSTANCES, theme)
	},
	{
		name: 'backup-failed',
		label: 'Sauvegarde automatique en échec (à chaque administrateur)',
		audience: 'entreprise',
		render: (theme) =>
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
	},
	{
		name: 'device-link',
		label: 'Reconnaître ce navigateur (au membre, pendant une attaque)',
		audience: 'membre',
		render: (theme) =>
			security.deviceLink(
				'Julien Morel',
				'https://exemple.fr/login/navigateur/exemple',
				SAMPLE_CIRCUMSTANCES,
				theme
			)
	}
];

export const mailPreview = (name: string) => MAIL_PREVIEWS.find((preview) => preview.name === name) ?? null;
