import { company } from '$lib/company';
import { videoTime } from '$lib/format';
import type { MailTheme } from '../theme';
import { letter } from './letter';

/**
 * « Reprenez là où vous en étiez »: one short e-mail after a week without progress (at most one a fortnight), with
 * the module to go back to and, for a video, where they stopped. Every one carries its one-click unsubscribe.
 */
export function courseReminder(
	firstName: string,
	next: { title: string; url: string; resumeAt: number | null },
	progress: { completed: number; total: number },
	unsubscribeUrl: string,
	theme: MailTheme = 'dark'
) {
	const where =
		next.resumeAt !== null
			? `« ${next.title} », à ${videoTime(next.resumeAt)} de la vidéo`
			: `« ${next.title} »`;
	return letter(
		{
			subject: 'Reprenez là où vous en étiez',
			heading: `Bonjour ${firstName},`,
			paragraphs: [
				`Vous avez terminé ${progress.completed} module${progress.completed > 1 ? 's' : ''} sur ${progress.total} du ${company.training.name}. La suite vous attend : ${where}.`,
				'Un quart d’heure suffit pour avancer :'
			],
			button: { href: next.url, label: 'Reprendre le module' },
			after: [
				`Vous ne voulez plus de ces rappels ? Un clic suffit : ${unsubscribeUrl} (ou depuis votre profil).`
			]
		},
		theme
	);
}
