/**
 * The admin actions that want a recent re-authentication (http/reauthentication.ts), by name: the users list runs
 * them at once when the session confirmed within ten minutes, /admin/confirmer runs the one it kept afterwards.
 * One table, so that what the list does and what the confirmation carries out cannot drift apart.
 */
import * as auth from '../auth';
import * as memberships from '../memberships';
import type { ConfirmedAction } from './reauthentication';

export const ADMIN_ACTIONS = {
	grantAdmin: async (admin, id, origin) =>
		(await auth.setAdminRole(id, true, admin, origin))
			? { done: 'Ce compte est maintenant administrateur.', flash: 'confirmed-admin-granted' }
			: { done: 'Déjà administrateur.', flash: 'confirmed-admin-already' },
	revokeAdmin: async (admin, id, origin) =>
		(await auth.setAdminRole(id, false, admin, origin))
			? { done: 'Ce compte n’est plus administrateur.', flash: 'confirmed-admin-revoked' }
			: { done: 'Ce compte n’était pas administrateur.', flash: 'confirmed-admin-not' },
	removeSecondFactor: async (admin, id, origin) =>
		(await auth.removeSecondFactorOf(id, admin, origin))
			? {
					done: 'Double authentification retirée : ce compte se connecte de nouveau avec son seul mot de passe.',
					flash: 'confirmed-second-factor-removed'
				}
			: { done: 'Ce compte n’avait pas de double authentification.', flash: 'confirmed-second-factor-none' },
	delete: async (admin, id) => {
		await memberships.deleteAccountAsAdmin(id, admin);
		return {
			done: 'Compte supprimé (abonnement résilié s’il était en cours, candidature anonymisée).',
			flash: 'confirmed-account-deleted'
		};
	},
	/** The download itself is a link (a GET): after the confirmation, the page offers it again for one click. */
	backup: async () => ({ done: '', flash: 'confirmed-backup' }),
	/** Revoking asks for a reason: after the confirmation, the page shows the forms that take it. */
	attestations: async () => ({ done: '', flash: 'confirmed-attestations' })
} satisfies Record<string, ConfirmedAction>;

export type AdminActionName = keyof typeof ADMIN_ACTIONS;

/** What the confirmation page says it will do, by action. */
const LABELS: Record<AdminActionName, string> = {
	grantAdmin: 'rendre administrateur',
	revokeAdmin: 'retirer les droits d’administrateur de',
	removeSecondFactor: 'retirer la double authentification de',
	delete: 'supprimer le compte de',
	backup: 'télécharger la sauvegarde complète du site',
	attestations: 'révoquer une attestation de fin de formation'
};

/** « Après confirmation : rendre administrateur Julien Morel (julien@…) », for the kept action. */
export async function describeAdminAction(action: string, target: string): Promise<string | null> {
	if (!Object.hasOwn(LABELS, action)) return null;
	const label = LABELS[action as AdminActionName];
	if (action === 'backup' || action === 'attestations') return label;
	try {
		const account = await auth.accountById(target);
		return `${label} ${account.name} (${account.email})`;
	} catch {
		return null;
	}
}
