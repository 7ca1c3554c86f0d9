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
	if (seconds < 90) return `Réessayez dans ${Math.max(1, seconds)} secondes.`;
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

/** The database is out: the submission was not taken, but nothing typed is lost (forms keep their values). */
export const OUTAGE_MESSAGE =
	'Le service est momentanément indisponible. Réessayez dans quelques instants : ce que vous avez saisi est conservé.';

/** "Mot de passe oublié": the same words whether the address has an account or not. */
export const RESET_LINK_SENT =
	'Si un compte existe avec cette adresse, un lien pour choisir un nouveau mot de passe vient de lui être envoyé (valable 2 heures).';

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
	'admin-2fa-required': {
		text: 'Activez la double authentification pour ouvrir l’administration.',
		link: { href: '/profil/securite', label: 'Activer la double authentification' }
	}
} as const;
export type FlashKey = keyof typeof FLASH_MESSAGES;
export type Flash = (typeof FLASH_MESSAGES)[FlashKey];
