import type { MailTheme } from '../theme';
import { letter } from './letter';

/** The first time a member's attestation is issued: where to download it, and where anyone can check it. */
export function attestationIssued(
	firstName: string,
	programme: string,
	links: { download: string; verify: string },
	theme: MailTheme = 'dark'
) {
	return letter(
		{
			subject: `Votre attestation de fin de formation : ${programme}`,
			heading: `Bravo ${firstName} !`,
			paragraphs: [
				`Vous avez terminé tous les modules du programme « ${programme} ». Votre attestation de fin de formation est prête :`
			],
			button: { href: links.download, label: 'Télécharger mon attestation (PDF)' },
			after: [
				`Toute personne à qui vous la remettez peut vérifier qu’elle est authentique à cette adresse, sans compte : ${links.verify}`,
				'Vous la retrouvez à tout moment dans votre bilan, depuis votre espace membre.'
			]
		},
		theme
	);
}
