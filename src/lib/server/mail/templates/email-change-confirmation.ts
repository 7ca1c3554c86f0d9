import type { MailTheme } from '../theme';
import { letter } from './letter';

/** To the new address: following the link makes it the account's address. */
export function emailChangeConfirmation(name: string, confirmLink: string, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Confirmez votre nouvelle adresse e-mail',
			heading: `Bonjour ${name},`,
			paragraphs: [
				'Vous avez demandé à utiliser cette adresse pour votre compte. Confirmez-la pour qu’elle remplace l’ancienne :'
			],
			button: { href: confirmLink, label: 'Confirmer ma nouvelle adresse' },
			after: [
				'Ce lien sert une seule fois et reste valable 24 heures. D’ici là, votre compte garde son ancienne adresse.',
				'Vous n’avez rien demandé ? Ignorez cet e-mail : rien ne change.'
			]
		},
		theme
	);
}
