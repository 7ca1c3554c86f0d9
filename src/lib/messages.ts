/**
 * The French texts a visitor reads about a submission as a whole (field messages live with their schema in
 * `$lib/schemas`). Client-safe: the form actions (through `server/http/forms.ts`) and the browser's fallback
 * for a request that never got an answer read them from here, so each text is written once.
 */

/** A lead (contact or devis) is stored, whichever way it arrived (form action or JSON API). */
export const LEAD_RECEIVED =
	'Merci ! Votre demande est bien reçue : nous vous répondons sous 48 heures ouvrées.';

/** A form came back with field errors: the fields say what is wrong, this says where to look. */
export const FIX_FIELDS = 'Corrigez les champs signalés.';

/** "Réessayez dans 12 minutes." */
export function retryAfterText(seconds: number): string {
	if (seconds <= 1) return 'Réessayez dans une seconde.';
	if (seconds < 90) return `Réessayez dans ${seconds} secondes.`;
	return `Réessayez dans ${Math.ceil(seconds / 60)} minutes.`;
}

/** A wizard step came back with field errors. */
export const FIX_STEP = 'Complétez les champs signalés pour passer à l’étape suivante.';

/** A 429 on a form. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
	`Trop de tentatives. ${retryAfterText(retryAfterSeconds)}`;

/** The request never reached the server, or its answer never came back. */
export const NETWORK_ERROR = 'Connexion impossible. Vérifiez votre réseau et réessayez.';

/** The server failed unexpectedly; `id` is the reference its log holds. */
export const serverError = (id?: string) =>
	`L’envoi a échoué à cause d’une erreur du serveur${id ? ` (référence ${id})` : ''}. Réessayez dans un instant.`;

/**
 * What a form says when its action answered with an error page's error rather than its form: the server's own
 * words when it refused (a 4xx carries its French message) or said why (an outage, without a reference); for a
 * failure of ours, the reference its log line holds.
 */
export function refusalText(
	status: number | undefined,
	error: { message?: string; id?: string } | undefined
): string {
	const message = error?.message?.trim();
	if (message && ((status !== undefined && status < 500) || !error?.id)) return message;
	return serverError(error?.id);
}

/** The database is out: the submission was not taken, but nothing typed is lost (forms keep their values). */
export const OUTAGE_MESSAGE =
	'Le service est momentanément indisponible. Réessayez dans quelques instants : ce que vous avez saisi est conservé.';

/** The database's disk is full: nothing could be written, and the visitor is told it is not their doing. */
export const DISK_FULL_MESSAGE =
	'Le serveur ne peut rien enregistrer pour l’instant (espace disque plein). Réessayez plus tard : ce que vous avez saisi est conservé.';

/** The outage's words: a full disk said as such, any other as the service being unavailable. */
export const outageMessage = (diskFull: boolean) => (diskFull ? DISK_FULL_MESSAGE : OUTAGE_MESSAGE);

/** "Mot de passe oublié": the same words whether the address has an account or not. */
export const RESET_LINK_SENT =
	'Si un compte existe avec cette adresse, un lien pour choisir un nouveau mot de passe vient de lui être envoyé (valable 2 heures).';

/** The sign-in page's device link: the same words whether the account exists or not. */
export const DEVICE_LINK_SENT =
	'Si un compte existe avec cette adresse, un lien pour reconnaître ce navigateur vient de lui être envoyé (valable 15 minutes, un envoi toutes les 5 minutes au plus). Ouvrez-le dans ce navigateur, puis connectez-vous.';

export const NAME_UPDATED = 'Votre nom a été mis à jour.';
export const PASSWORD_CHANGED = 'Mot de passe modifié. Vos autres sessions ont été déconnectées.';

/**
 * An unexpected error's message carries the request's id, because SvelteKit's last-resort page (src/error.html,
 * for an error before any layout could run) shows only the message. Error pages that show the id on its own line
 * take it out of the message.
 */
export const withReference = (message: string, id: string) => `${message} (référence ${id})`;
export const withoutReference = (message: string) => message.replace(/ \(référence [^)]+\)$/, '');

/**
 * Messages carried across a redirect (src/lib/server/http/flash.ts names them in a cookie): a member sent away
 * from the admin is told why, and where their own space is (SEED part 5).
 */
export const FLASH_MESSAGES = {
	'admin-only': {
		text: 'Cette page est réservée aux administrateurs.',
		link: { href: '/dashboard', label: 'Aller à votre espace membre' }
	},
	/** After a sign-in with a recovery code: `count` is how many are left. */
	'recovery-code-used': {
		text: (left: number) =>
			left === 0
				? 'Vous vous êtes connecté avec votre dernier code de secours : générez-en de nouveaux dès maintenant.'
				: `Vous vous êtes connecté avec un code de secours. Il vous en reste ${left} ; chacun ne sert qu’une fois.`,
		link: { href: '/profil/securite', label: 'Gérer mes codes de secours' }
	},
	// What an action asked for after /admin/confirmer did (src/lib/server/http/admin-actions.ts).
	'confirmed-admin-granted': { text: 'Identité confirmée : ce compte est maintenant administrateur.' },
	'confirmed-admin-already': { text: 'Identité confirmée : ce compte était déjà administrateur.' },
	'confirmed-admin-revoked': { text: 'Identité confirmée : ce compte n’est plus administrateur.' },
	'confirmed-admin-not': { text: 'Identité confirmée : ce compte n’était pas administrateur.' },
	'confirmed-second-factor-removed': {
		text: 'Identité confirmée : double authentification retirée, ce compte se connecte de nouveau avec son seul mot de passe.'
	},
	'confirmed-second-factor-none': {
		text: 'Identité confirmée : ce compte n’avait pas de double authentification.'
	},
	'confirmed-account-deleted': {
		text: 'Identité confirmée : compte supprimé (abonnement résilié s’il était en cours, candidature anonymisée).'
	},
	'confirmed-backup': {
		text: 'Identité confirmée : vous pouvez télécharger la sauvegarde pendant dix minutes.'
	},
	'confirmed-attestations': {
		text: 'Identité confirmée : vous pouvez révoquer une attestation pendant dix minutes.'
	},
	'confirmed-recovery-codes': {
		text: 'Identité confirmée : vous pouvez générer de nouveaux codes de secours pendant dix minutes.'
	},
	'confirmed-failed': {
		text: 'Identité confirmée, mais l’action demandée n’a pas pu aboutir : recommencez-la ci-dessous.'
	},
	'device-known': {
		text: 'Ce navigateur est maintenant reconnu pour votre compte : saisissez votre mot de passe.'
	}
} as const;
export type FlashKey = keyof typeof FLASH_MESSAGES;
/** A message as a page shows it: its text (with its count put in) and its link. */
export interface Flash {
	text: string;
	link?: { href: string; label: string };
}
