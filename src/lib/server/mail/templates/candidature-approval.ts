import { company } from '$lib/company';
import type { MailTheme } from '../theme';
import type { CandidatureForMail } from './candidature-answers';
import { letter } from './letter';

const programme = () => company.training.name;

/** To the candidate, approved: the branded dark e-mail whose button is the lasting payment link. */
export function candidatureApproval(
	c: Pick<CandidatureForMail, 'firstName'>,
	paymentLink: string,
	theme: MailTheme = 'dark'
) {
	return letter(
		{
			subject: `Bienvenue dans le ${programme()} : finalisez votre inscription`,
			heading: `Félicitations ${c.firstName} !`,
			paragraphs: [
				`Votre candidature au ${programme()} est acceptée.`,
				`Pour ouvrir votre accès aux cours, réglez votre abonnement (${company.training.monthlyPriceTtc} TTC par mois, sans engagement) sur la page de paiement sécurisée :`
			],
			button: { href: paymentLink, label: 'Finaliser mon inscription' },
			after: [
				'Ce lien reste valable : s’il a expiré de son côté, la page de paiement en prépare un nouveau.',
				'Dès le paiement, vous recevrez un e-mail pour choisir votre mot de passe.'
			]
		},
		theme
	);
}
