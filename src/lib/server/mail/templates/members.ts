/** The members' e-mails: welcome with a set-password link, password reset, and the admin's notice of a deletion. */
import { company } from '$lib/content/company';
import type { MailTheme } from '../theme';
import { letter } from './letter';

const programme = company.training.name;

/** After the payment: access is open, and a link (valid 7 days, single use) sets the password. */
export function memberWelcome(firstName: string, setPasswordLink: string, theme: MailTheme = 'dark') {
	return letter(
		{
			subject: `Bienvenue dans le ${programme} : choisissez votre mot de passe`,
			heading: `Bienvenue ${firstName} !`,
			paragraphs: [
				'Votre paiement est bien reçu : votre accès aux cours est ouvert.',
				'Choisissez votre mot de passe pour vous connecter :'
			],
			button: { href: setPasswordLink, label: 'Choisir mon mot de passe' },
			after: [
				'Ce lien sert une seule fois et reste valable 7 jours. Passé ce délai, demandez-en un nouveau depuis « Mot de passe oublié ».'
			]
		},
		theme
	);
}

/** "Mot de passe oublié": a single-use link valid 2 hours. */
export function passwordReset(name: string, resetLink: string, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Réinitialiser votre mot de passe',
			heading: `Bonjour ${name},`,
			paragraphs: ['Vous avez demandé à changer votre mot de passe. Choisissez-en un nouveau :'],
			button: { href: resetLink, label: 'Choisir un nouveau mot de passe' },
			after: [
				'Ce lien sert une seule fois et reste valable 2 heures. Il déconnecte toutes vos sessions ouvertes.',
				'Vous n’avez rien demandé ? Ignorez cet e-mail : votre mot de passe ne change pas.'
			]
		},
		theme
	);
}

/** To the new address: following the link makes it the account's address. */
export function emailChangeConfirmation(name: string, confirmLink: string, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Confirmez votre nouvelle adresse e-mail',
			heading: `Bonjour ${name},`,
			paragraphs: [
				'Vous avez demandé à utiliser cette adresse pour votre compte. Confirmez-la pour qu’elle remplace l’ancienne :'
			],
			button: { href: confirmLink, label: 'Confirmer ma nouvelle adresse' },
			after: [
				'Ce lien sert une seule fois et reste valable 24 heures. D’ici là, votre compte garde son ancienne adresse.',
				'Vous n’avez rien demandé ? Ignorez cet e-mail : rien ne change.'
			]
		},
		theme
	);
}

/** To the former address, once the change is made: a change the owner did not make must not go unnoticed. */
export function emailChanged(name: string, newEmail: string, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Votre adresse e-mail a changé',
			heading: `Bonjour ${name},`,
			paragraphs: [
				`Votre compte utilise désormais l’adresse ${newEmail} : c’est elle qui sert à vous connecter.`,
				`Ce n’était pas vous ? Écrivez-nous sans attendre à ${company.email}.`
			]
		},
		theme
	);
}

/** To the business: a member deleted their account (their subscription was cancelled first). */
export function accountDeleted(
	member: { name: string; email: string },
	subscriptionCancelled: boolean,
	theme: MailTheme = 'light'
) {
	return letter(
		{
			subject: `Compte supprimé : ${member.name}`.replace(/\s+/g, ' '),
			heading: 'Un membre a supprimé son compte',
			paragraphs: [
				'Son compte, ses sessions et sa progression sont effacés ; sa candidature est anonymisée.',
				subscriptionCancelled
					? 'Son abonnement Stripe a été résilié avant la suppression.'
					: 'Il n’avait pas d’abonnement en cours.'
			],
			rows: [
				['Nom', member.name],
				['E-mail', member.email]
			]
		},
		theme
	);
}
