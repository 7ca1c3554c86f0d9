import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import { letter } from './letter';

const programme = () => company.training.name;

/** After the payment: access is open, and a link (valid 7 days, single use) sets the password. */
export function memberWelcome(firstName: string, setPasswordLink: string, theme: MailTheme = 'dark') {
	return letter(
		{
			subject: `Bienvenue dans le ${programme()} : choisissez votre mot de passe`,
			heading: `Bienvenue ${firstName} !`,
			paragraphs: [
				'Votre paiement est bien reçu : votre accès aux cours est ouvert.',
				'Choisissez votre mot de passe pour vous connecter :'
			],
			button: { href: setPasswordLink, label: 'Choisir mon mot de passe' },
			after: [
				'Ce lien sert une seule fois et reste valable 7 jours. Passé ce délai, demandez-en un nouveau depuis « Mot de passe oublié ».'
			]
		},
		theme
	);
}
