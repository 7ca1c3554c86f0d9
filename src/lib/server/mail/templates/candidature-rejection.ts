import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import type { CandidatureForMail } from './candidature-answers';
import { letter } from './letter';

const programme = () => company.training.name;

/** To the candidate, not retained: kind, with the reason when the admin gave one. */
export function candidatureRejection(
	c: Pick<CandidatureForMail, 'firstName'>,
	reason: string | null | undefined,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Votre candidature au ${programme()}`,
			heading: `Bonjour ${c.firstName},`,
			paragraphs: [
				`Merci de l’intérêt que vous portez au ${programme()}. Après étude, nous ne pouvons pas retenir votre candidature pour le moment.`,
				...(reason ? [`Notre remarque : ${reason}`] : []),
				`Rien ne vous empêche de candidater de nouveau plus tard. Pour en parler, appelez-nous au ${company.phone}.`
			]
		},
		theme
	);
}
