/** To every admin when a scheduled backup fails (issue « Backups », point 5): what failed, when, and where to look. */
import { dateTime } from '$lib/format';
import type { MailTheme } from '../theme';
import { letter } from './letter';

const when = (at: Date) => dateTime(at, 'long');

export function backupFailed(
	name: string,
	failure: { at: Date; cause: string; lastGood: Date | null },
	/** The admin page that lists the backups; null in showcase mode, which has no admin. */
	pageUrl: string | null,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: 'La sauvegarde automatique du site a échoué',
			heading: `Bonjour ${name},`,
			paragraphs: [
				'La sauvegarde prévue cette fois-ci n’a pas pu être faite. Les données du site sont intactes, mais elles ne sont pas copiées en lieu sûr tant qu’une sauvegarde ne réussit pas.',
				'Faites suivre ce message à la personne qui s’occupe du serveur : la cause ci-dessous lui dira quoi corriger. La prochaine sauvegarde sera tentée à l’heure prévue.'
			],
			rows: [
				['Quand', `${when(failure.at)} (heure de Paris)`],
				['Cause', failure.cause],
				[
					'Dernière sauvegarde réussie',
					failure.lastGood ? `${when(failure.lastGood)} (heure de Paris)` : 'aucune'
				]
			],
			...(pageUrl
				? { button: { href: pageUrl, label: 'Voir les sauvegardes' } }
				: { after: ['Le journal du serveur en donne le détail (ligne « scheduled backup failed »).'] })
		},
		theme
	);
}
