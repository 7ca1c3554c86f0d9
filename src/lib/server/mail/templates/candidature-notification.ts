import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import { candidatureRows, type CandidatureForMail } from './candidature-answers';
import { letter } from './letter';

const programme = () => company.training.name;

/** To the business: every answer and a link to the candidature. */
export function candidatureNotification(c: CandidatureForMail, adminUrl: string, theme: MailTheme = 'light') {
	const name = `${c.firstName} ${c.lastName}`.replace(/\s+/g, ' ');
	return letter(
		{
			subject: `Nouvelle candidature : ${name} (${c.company})`.replace(/\s+/g, ' '),
			heading: 'Nouvelle candidature',
			paragraphs: [`${name} a déposé une candidature au ${programme()}.`],
			rows: candidatureRows(c),
			button: { href: adminUrl, label: 'Voir la candidature' }
		},
		theme
	);
}
