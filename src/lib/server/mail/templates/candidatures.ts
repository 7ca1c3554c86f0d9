/**
 * The e-mails of the training programme's candidatures: confirmation to the candidate, notification to the
 * business, approval (dark, with the payment link) and rejection. Each is data for Letter.svelte, and its
 * plain-text twin is made from the same data.
 */
import { dateTime } from '$lib/format';
import { company } from '$lib/content/company';
import {
	GOALS,
	PRESENCE,
	TRADES,
	formatFrenchPhone,
	labelOf,
	type CandidatureStatus
} from '$lib/schemas/candidature';
import type { MailTheme } from '../theme';
import { letter } from './letter';

export interface CandidatureForMail {
	id: string;
	status?: CandidatureStatus;
	firstName: string;
	lastName: string;
	email: string;
	phone: string;
	postalCode: string;
	city: string;
	trade: string;
	tradeOther?: string | null;
	company: string;
	siret: string;
	yearsExperience: number;
	teamSize: number;
	currentSite?: string | null;
	goals: string[];
	presence: string[];
	hoursPerWeek: number;
	motivation: string;
	createdAt: Date;
}

const programme = company.training.name;

const when = (date: Date) => dateTime(date, 'long');

/** Every answer of the wizard, labelled in French (the admin's notification and the admin list). */
export function candidatureRows(c: CandidatureForMail): [string, string][] {
	const trade = c.trade === 'autre' ? `Autre : ${c.tradeOther ?? ''}` : labelOf(TRADES, c.trade);
	return [
		['Prénom et nom', `${c.firstName} ${c.lastName}`],
		['E-mail', c.email],
		['Téléphone', formatFrenchPhone(c.phone)],
		['Commune', `${c.postalCode} ${c.city}`],
		['Métier', trade],
		['Entreprise', c.company],
		['SIRET', c.siret.replace(/^(\d{3})(\d{3})(\d{3})(\d{5})$/, '$1 $2 $3 $4')],
		['Expérience', `${c.yearsExperience} an${c.yearsExperience > 1 ? 's' : ''}`],
		['Équipe', `${c.teamSize} personne${c.teamSize > 1 ? 's' : ''}`],
		['Site actuel', c.currentSite || '—'],
		['Objectifs', c.goals.map((g) => labelOf(GOALS, g)).join(', ')],
		['Présence aujourd’hui', c.presence.map((p) => labelOf(PRESENCE, p)).join(', ')],
		['Disponibilité', `${c.hoursPerWeek} h par semaine`],
		['Motivation', c.motivation],
		['Reçue le', when(c.createdAt)]
	];
}

/** To the candidate, once stored: what happens next and when. None of their free text is echoed. */
export function candidatureConfirmation(
	c: Pick<CandidatureForMail, 'firstName'>,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Votre candidature au ${programme} est bien reçue`,
			heading: `Bonjour ${c.firstName},`,
			paragraphs: [
				`Merci pour votre candidature au ${programme}. Nous l’étudions et vous répondons par e-mail sous 5 jours ouvrés.`,
				'Si elle est retenue, vous recevrez un lien pour régler votre inscription ; votre accès aux cours s’ouvre dès le paiement.',
				`Une question d’ici là ? Appelez-nous au ${company.phone}.`
			]
		},
		theme
	);
}

/** To the business: every answer and a link to the candidature. */
export function candidatureNotification(c: CandidatureForMail, adminUrl: string, theme: MailTheme = 'light') {
	const name = `${c.firstName} ${c.lastName}`.replace(/\s+/g, ' ');
	return letter(
		{
			subject: `Nouvelle candidature : ${name} (${c.company})`.replace(/\s+/g, ' '),
			heading: 'Nouvelle candidature',
			paragraphs: [`${name} a déposé une candidature au ${programme}.`],
			rows: candidatureRows(c),
			button: { href: adminUrl, label: 'Voir la candidature' }
		},
		theme
	);
}

/** To the candidate, approved: the branded dark e-mail whose button is the lasting payment link. */
export function candidatureApproval(
	c: Pick<CandidatureForMail, 'firstName'>,
	paymentLink: string,
	theme: MailTheme = 'dark'
) {
	return letter(
		{
			subject: `Bienvenue dans le ${programme} : finalisez votre inscription`,
			heading: `Félicitations ${c.firstName} !`,
			paragraphs: [
				`Votre candidature au ${programme} est acceptée.`,
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

/** To the candidate, not retained: kind, with the reason when the admin gave one. */
export function candidatureRejection(
	c: Pick<CandidatureForMail, 'firstName'>,
	reason: string | null | undefined,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Votre candidature au ${programme}`,
			heading: `Bonjour ${c.firstName},`,
			paragraphs: [
				`Merci de l’intérêt que vous portez au ${programme}. Après étude, nous ne pouvons pas retenir votre candidature pour le moment.`,
				...(reason ? [`Notre remarque : ${reason}`] : []),
				`Rien ne vous empêche de candidater de nouveau plus tard. Pour en parler, appelez-nous au ${company.phone}.`
			]
		},
		theme
	);
}
