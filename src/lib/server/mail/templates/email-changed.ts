import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import { letter } from './letter';
import { circumstanceRows, type Circumstances } from './security-notices';

/** To the former address, once the change is made: a change the owner did not make must not go unnoticed. */
export function emailChanged(name: string, newEmail: string, c: Circumstances, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Votre adresse e-mail a changé',
			heading: `Bonjour ${name},`,
			paragraphs: [
				`Votre compte utilise désormais l’adresse ${newEmail} : c’est elle qui sert à vous connecter.`
			],
			rows: circumstanceRows(c),
			after: [`Ce n’était pas vous ? Écrivez-nous sans attendre à ${company.email}.`]
		},
		theme
	);
}
