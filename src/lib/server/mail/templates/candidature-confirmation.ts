import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import type { CandidatureForMail } from './candidature-answers';
import { letter } from './letter';

const programme = () => company.training.name;

/** To the candidate, once stored: what happens next and when. None of their free text is echoed. */
export function candidatureConfirmation(
	c: Pick<CandidatureForMail, 'firstName'>,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Votre candidature au ${programme()} est bien reçue`,
			heading: `Bonjour ${c.firstName},`,
			paragraphs: [
				`Merci pour votre candidature au ${programme()}. Nous l’étudions et vous répondons par e-mail ${company.training.replyDelay}.`,
				'Si elle est retenue, vous recevrez un lien pour régler votre inscription ; votre accès aux cours s’ouvre dès le paiement.',
				`Une question d’ici là ? Appelez-nous au ${company.phone}.`
			]
		},
		theme
	);
}
