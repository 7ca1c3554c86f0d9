/**
 * What the audit trail records (issue "Trust", point 3): one kind per admin action, with the label the
 * « Activité » page shows. Client-safe: the page's filter lists these. A new admin action gets its kind here, and
 * its domain function writes it in the action's own transaction (src/lib/server/audit/service.ts).
 */
export const AUDIT_KINDS = {
	'admin.first_created': 'Premier administrateur créé',
	'admin.created_by_cli': 'Administrateur créé en ligne de commande',
	'user.password_link_by_cli': 'Lien de mot de passe donné en ligne de commande',
	'admin.reauthenticated': 'Identité confirmée (actions sensibles)',
	'user.admin_granted': 'Droits d’administrateur donnés',
	'user.admin_revoked': 'Droits d’administrateur retirés',
	'user.second_factor_removed': 'Double authentification retirée',
	'user.own_second_factor_removed': 'Double authentification désactivée par son titulaire',
	'user.recovery_codes_renewed': 'Nouveaux codes de secours',
	'admin.promoted_by_cli': 'Compte existant nommé administrateur en ligne de commande',
	'admin.password_link_by_cli': 'Lien de mot de passe donné à un administrateur en ligne de commande',
	'backup.restored': 'Sauvegarde restaurée',
	'backup.written_by_cli': 'Sauvegarde écrite en ligne de commande',
	'backup.scheduled': 'Sauvegarde automatique faite',
	'backup.scheduled_failed': 'Sauvegarde automatique en échec',
	'user.deleted': 'Compte supprimé',
	'candidature.approved': 'Candidature acceptée',
	'candidature.rejected': 'Candidature refusée',
	'candidature.notification_resent': 'Notification de candidature renvoyée',
	'lead.handled': 'Demande marquée traitée',
	'lead.unhandled': 'Demande remise à traiter',
	'lead.not_spam': 'Demande sortie des indésirables',
	'lead.notification_resent': 'Notification de demande renvoyée',
	'lead.deleted': 'Demande supprimée',
	'leads.exported': 'Demandes exportées (CSV)',
	'module.created': 'Module créé',
	'module.updated': 'Module modifié',
	'module.deleted': 'Module supprimé',
	'modules.reordered': 'Modules réordonnés',
	'course.updated': 'Réglages du cours modifiés',
	'course.signature_set': 'Signature de l’attestation envoyée',
	'course.signature_removed': 'Signature de l’attestation retirée',
	'attestation.revoked': 'Attestation révoquée',
	'course_file.uploaded': 'Fichier de cours envoyé',
	'image.uploaded': 'Image envoyée',
	'site_image.replaced': 'Photo du site remplacée',
	'site_image.reset': 'Photo du site remise par défaut',
	'backup.downloaded': 'Sauvegarde téléchargée',
	'personal_data.exported': 'Données d’un membre téléchargées',
	'content.published': 'Page publiée',
	'content.restored': 'Version restaurée',
	'content.draft_discarded': 'Brouillon abandonné',
	'content.publish_scheduled': 'Publication programmée',
	'content.schedule_cancelled': 'Publication programmée annulée',
	'content.scheduled_publish_failed': 'Publication programmée non faite',
	'article.created': 'Article créé',
	'article.deleted': 'Article supprimé'
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;

export const AUDIT_KIND_NAMES = Object.keys(AUDIT_KINDS) as AuditKind[];

export const isAuditKind = (value: string): value is AuditKind => Object.hasOwn(AUDIT_KINDS, value);

/** What kind of record a row is about, as the page names it, and where its own page is when it has one. */
export const AUDIT_SUBJECTS: Record<string, { label: string; href?: (id: string) => string }> = {
	candidature: { label: 'Candidature', href: (id) => `/admin/candidatures/${id}` },
	lead: { label: 'Demande', href: (id) => `/admin/demandes/${id}` },
	leads: { label: 'Demandes' },
	module: { label: 'Module', href: (id) => `/admin/cours/${id}` },
	modules: { label: 'Modules' },
	course: { label: 'Cours', href: () => '/admin/cours' },
	attestation: { label: 'Attestation', href: () => '/admin/attestations' },
	course_file: { label: 'Fichier de cours' },
	site_image: { label: 'Emplacement d’image' },
	object: { label: 'Fichier' },
	user: { label: 'Compte' },
	backup: { label: 'Sauvegarde' },
	content: { label: 'Page ou article', href: (id) => `/admin/pages/${id}` }
};

/** The fields a row's changes name, as the page shows them (an unknown one shows its own name). */
export const AUDIT_FIELDS: Record<string, string> = {
	status: 'Statut',
	reasonGiven: 'Motif donné',
	handled: 'Traitée',
	spam: 'Indésirable',
	kind: 'Type',
	exported: 'Export',
	title: 'Titre',
	slug: 'Adresse',
	summary: 'Résumé',
	published: 'Publié',
	position: 'Position',
	durationMinutes: 'Durée (min)',
	contentLength: 'Longueur du texte',
	sequential: 'Ordre imposé',
	revokedAt: 'Révoquée le',
	revokedReason: 'Motif de révocation',
	quizQuestions: 'Questions du quiz',
	order: 'Ordre',
	url: 'Image',
	alt: 'Texte alternatif',
	stored: 'Fichier',
	revision: 'Version',
	path: 'Adresse de la page',
	isAdmin: 'Administrateur',
	twoFactor: 'Double authentification',
	subscriptionCancelled: 'Abonnement résilié',
	rows: 'Lignes',
	objects: 'Fichiers',
	replaced: 'Données remplacées',
	size: 'Taille (octets)',
	video: 'Vidéo',
	captions: 'Sous-titres',
	poster: 'Affiche',
	attachments: 'Pièces jointes'
};
