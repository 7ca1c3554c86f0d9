import type { MailTheme } from '../theme';
import { letter } from './letter';

/**
 * To the business: an account was deleted (its subscription cancelled first), by its member or by an admin —
 * named, so that the business knows who did it.
 */
export function accountDeleted(
	member: { name: string; email: string },
	subscriptionCancelled: boolean,
	deletedBy: string | null = null,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Compte supprimé : ${member.name}`.replace(/\s+/g, ' '),
			heading: deletedBy ? `${deletedBy} a supprimé un compte` : 'Un membre a supprimé son compte',
			paragraphs: [
				'Son compte, ses sessions et sa progression sont effacés ; sa candidature est anonymisée.',
				subscriptionCancelled
					? 'Son abonnement Stripe a été résilié avant la suppression.'
					: 'Il n’avait pas d’abonnement en cours.'
			],
			rows: [
				['Nom', member.name],
				['E-mail', member.email],
				['Supprimé par', deletedBy ?? 'le membre lui-même']
			]
		},
		theme
	);
}
