/**
 * The security e-mails (issue "Trust, part 2", point 9): short, each telling the owner of an account what just
 * changed on it, when, and from which device — so that a change they did not make does not go unnoticed. Every one
 * ends with what to do when it was not them.
 */
import { company } from '$lib/company';
import { dateTime } from '$lib/format';
import type { MailTheme } from '../theme';
import { letter } from './letter';

/** When and from where: « le 26/11/2026 à 12:03 (heure de Paris), depuis Firefox sur Linux, réseau 203.0.113.0/24 ». */
export interface Circumstances {
	at: Date;
	/** `describeDevice` of the request's User-Agent; null when a command or another person did it. */
	device: string | null;
	/** `describeNetwork`; null likewise. */
	network: string | null;
}

const when = (at: Date) => dateTime(at, 'long');

/** The « Quand / Appareil / Réseau » rows every security e-mail carries. */
export const circumstanceRows = (c: Circumstances): [string, string | null][] => [
	['Quand', `${when(c.at)} (heure de Paris)`],
	['Appareil', c.device],
	['Réseau', c.network]
];

const notYou = () =>
	`Ce n’était pas vous ? Changez votre mot de passe sans attendre (« Mot de passe oublié » sur la page de connexion) et écrivez-nous à ${company.email}.`;

function notice(
	subject: string,
	name: string,
	paragraphs: string[],
	c: Circumstances,
	theme: MailTheme,
	after: string[] = [notYou()]
) {
	return letter(
		{ subject, heading: `Bonjour ${name},`, paragraphs, rows: circumstanceRows(c), after },
		theme
	);
}

export const secondFactorEnabled = (name: string, c: Circumstances, theme: MailTheme = 'light') =>
	notice(
		'Double authentification activée',
		name,
		[
			'La double authentification est maintenant active sur votre compte : chaque connexion demandera le code de votre application après le mot de passe.',
			'Gardez vos codes de secours en lieu sûr : ils vous ouvrent votre compte si vous perdez votre téléphone.'
		],
		c,
		theme
	);

export const secondFactorDisabled = (
	name: string,
	by: 'owner' | 'admin' | 'command',
	c: Circumstances,
	theme: MailTheme = 'light'
) =>
	notice(
		'Double authentification désactivée',
		name,
		[
			by === 'owner'
				? 'Vous avez désactivé la double authentification : votre mot de passe suffit de nouveau pour vous connecter.'
				: by === 'admin'
					? 'Un administrateur a retiré la double authentification de votre compte (à votre demande, après la perte de votre téléphone par exemple) : votre mot de passe suffit de nouveau pour vous connecter.'
					: 'La double authentification de votre compte a été retirée depuis le serveur : votre mot de passe suffit de nouveau pour vous connecter.',
			'Vous pouvez la réactiver à tout moment depuis votre profil.'
		],
		c,
		theme
	);

export const recoveryCodeUsed = (name: string, left: number, c: Circumstances, theme: MailTheme = 'light') =>
	notice(
		'Un code de secours a servi',
		name,
		[
			'Un de vos codes de secours vient d’ouvrir une connexion à votre compte.',
			left === 0
				? 'Il ne vous en reste aucun : générez-en de nouveaux depuis votre profil (Double authentification).'
				: `Il vous en reste ${left}. Quand il en reste peu, générez-en de nouveaux depuis votre profil.`
		],
		c,
		theme
	);

export const recoveryCodesRenewed = (name: string, c: Circumstances, theme: MailTheme = 'light') =>
	notice(
		'Nouveaux codes de secours',
		name,
		['Dix nouveaux codes de secours ont été générés pour votre compte. Les anciens ne fonctionnent plus.'],
		c,
		theme
	);

export const adminRightsChanged = (
	name: string,
	granted: boolean,
	by: string,
	c: Circumstances,
	theme: MailTheme = 'light'
) =>
	notice(
		granted ? 'Vous êtes maintenant administrateur' : 'Vos droits d’administrateur ont été retirés',
		name,
		[
			granted
				? `${by} vous a donné les droits d’administrateur : votre compte ouvre désormais l’administration du site.`
				: `${by} vous a retiré les droits d’administrateur : votre compte n’ouvre plus l’administration du site.`
		],
		c,
		theme,
		[`Une question ou une erreur ? Écrivez-nous à ${company.email}.`]
	);

export const passwordChanged = (
	name: string,
	how: 'profile' | 'link',
	c: Circumstances,
	theme: MailTheme = 'light'
) =>
	notice(
		'Votre mot de passe a changé',
		name,
		[
			how === 'profile'
				? 'Le mot de passe de votre compte vient d’être changé depuis votre profil. Vos autres sessions ont été déconnectées.'
				: 'Le mot de passe de votre compte vient d’être choisi par un lien reçu par e-mail. Toutes vos sessions ont été déconnectées et vos navigateurs devront se faire reconnaître de nouveau.'
		],
		c,
		theme
	);

export const accountDeletedByAdmin = (name: string, c: Circumstances, theme: MailTheme = 'light') =>
	notice(
		'Votre compte a été supprimé',
		name,
		[
			'Un administrateur a supprimé votre compte : vos sessions et votre progression sont effacées, et votre abonnement, s’il était en cours, est résilié.',
			'Vous ne recevrez plus d’e-mail de notre part au sujet de ce compte.'
		],
		c,
		theme,
		[`Vous pensez qu’il s’agit d’une erreur ? Écrivez-nous à ${company.email}.`]
	);

export const backupDownloaded = (name: string, by: string, c: Circumstances, theme: MailTheme = 'light') =>
	notice(
		'Une sauvegarde du site a été téléchargée',
		name,
		[
			`${by} vient de télécharger une sauvegarde complète du site.`,
			'Ce fichier contient tous les comptes, leurs mots de passe chiffrés et les secrets du site : il permet d’ouvrir n’importe quel compte. Il doit rester en lieu sûr.'
		],
		c,
		theme,
		[
			`Ce téléchargement n’était pas prévu ? Changez votre mot de passe, retirez les droits du compte en cause et écrivez-nous à ${company.email}.`
		]
	);

/** « Reconnaître ce navigateur » (sign-in page, while strangers keep the account slowed down). */
export function deviceLink(name: string, link: string, c: Circumstances, theme: MailTheme = 'light') {
	return letter(
		{
			subject: 'Reconnaître votre navigateur',
			heading: `Bonjour ${name},`,
			paragraphs: [
				'De nombreux essais de mot de passe visent votre compte, et sa connexion est ralentie pour les navigateurs inconnus. Pour vous connecter tout de même, ouvrez ce lien dans le navigateur que vous utilisez :'
			],
			rows: circumstanceRows(c),
			button: { href: link, label: 'Reconnaître ce navigateur' },
			after: [
				'Ce lien sert une seule fois et reste valable 15 minutes. Il ne connecte pas : votre mot de passe (et votre code, si la double authentification est active) vous seront demandés ensuite.',
				'Vous n’avez rien demandé ? Ignorez cet e-mail : personne n’entre sans votre mot de passe.'
			]
		},
		theme
	);
}
