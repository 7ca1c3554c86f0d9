import type { MailTheme } from '../theme';
import { letter } from './letter';

/** To the business: a member deleted their account (their subscription was cancelled first). */
export function accountDeleted(
	member: { name: string; email: string },
	subscriptionCancelled: boolean,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Compte supprimé : ${member.name}`.replace(/\s+/g, ' '),
			heading: 'Un membre a supprimé son compte',
			paragraphs: [
				'Son compte, ses sessions et sa progression sont effacés ; sa candidature est anonymisée.',
				subscriptionCancelled
					? 'Son abonnement Stripe a été résilié avant la suppression.'
					: 'Il n’avait pas d’abonnement en cours.'
			],
			rows: [
				['Nom', member.name],
				['E-mail', member.email]
			]
		},
		theme
	);
}
