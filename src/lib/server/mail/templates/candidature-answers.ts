/**
 * A candidature as its e-mails show it: the answers they may quote, labelled in French (the notification to the
 * business and the admin list). The e-mails themselves are one file each beside this one.
 */
import { dateTime } from '$lib/format';
import { labelOf } from '$lib/options';
import { GOALS, PRESENCE, TRADES, formatFrenchPhone, type CandidatureStatus } from '$lib/schemas/candidature';

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

export const when = (date: Date) => dateTime(date, 'long');

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
