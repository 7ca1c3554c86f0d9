import type { MailTheme } from '../theme';
import { letter } from './letter';

/** "Mot de passe oublié": a single-use link valid 2 hours. */
export function passwordReset(name: string, resetLink: string, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Réinitialiser votre mot de passe',
			heading: `Bonjour ${name},`,
			paragraphs: ['Vous avez demandé à changer votre mot de passe. Choisissez-en un nouveau :'],
			button: { href: resetLink, label: 'Choisir un nouveau mot de passe' },
			after: [
				'Ce lien sert une seule fois et reste valable 2 heures. Il déconnecte toutes vos sessions ouvertes.',
				'Vous n’avez rien demandé ? Ignorez cet e-mail : votre mot de passe ne change pas.'
			]
		},
		theme
	);
}
