import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import { letter } from './letter';

/**
 * The training's e-mails (issue « Formation, part 1 »): a member's question told to the admins (at most one per
 * admin and member a quarter of an hour), the trainer's answer told to the member, and the cold survey with its one
 * reminder. None carries the question's text: a thread is read on the site, signed in.
 */
export function questionAsked(
	member: string,
	module: string,
	threadUrl: string,
	delayDays: number,
	theme: MailTheme = 'dark'
) {
	return letter(
		{
			subject: `Question de ${member} sur « ${module} »`,
			heading: 'Une question vous attend',
			paragraphs: [
				`${member} a posé une question au formateur sur le module « ${module} ».`,
				`Le programme promet une réponse sous ${delayDays} jour${delayDays > 1 ? 's' : ''} ouvré${delayDays > 1 ? 's' : ''}.`
			],
			button: { href: threadUrl, label: 'Lire et répondre' },
			after: ['Les questions suivantes de ce membre dans le quart d’heure ne donnent pas d’autre e-mail.']
		},
		theme
	);
}

export function questionAnswered(
	firstName: string,
	module: string,
	threadUrl: string,
	theme: MailTheme = 'dark'
) {
	return letter(
		{
			subject: `Le formateur vous a répondu : « ${module} »`,
			heading: `Bonjour ${firstName},`,
			paragraphs: [
				`Le formateur du ${company.training.name} a répondu à votre question sur le module « ${module} ».`
			],
			button: { href: threadUrl, label: 'Lire la réponse' },
			after: ['Vous pouvez lui répondre depuis la même page.']
		},
		theme
	);
}

export function coldSurvey(
	firstName: string,
	surveyUrl: string,
	reminder: boolean,
	theme: MailTheme = 'dark'
) {
	return letter(
		{
			subject: reminder
				? 'Rappel : votre avis sur la formation, deux minutes'
				: 'Quelques semaines après : votre avis sur la formation',
			heading: `Bonjour ${firstName},`,
			paragraphs: [
				reminder
					? `Il y a une semaine, nous vous demandions ce que le ${company.training.name} vous a apporté avec le recul. Votre réponse compte : elle nous aide à améliorer le programme.`
					: `Vous avez terminé le ${company.training.name} il y a quelques semaines. Avec le recul, qu’en retenez-vous ? Cinq notes et un commentaire, deux minutes, sans vous connecter.`
			],
			button: { href: surveyUrl, label: 'Donner mon avis' },
			after: ['Ce lien est personnel et sert une fois, pendant 30 jours.']
		},
		theme
	);
}
