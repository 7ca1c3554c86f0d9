/**
 * The seed of the home page's first revision (src/content/agency/seed.ts): services, steps, figures,
 * testimonials and the FAQ. After that, the admin edits them at /admin/pages. Two rules (README, "Your content"):
 *
 * - Testimonials are the words of real clients, given with their consent. The ones shipped are marked
 *   `example: true`, and the page says so under them, until the business replaces them with its own.
 * - Figures are promises the business keeps (prices, delays), never results nobody measured.
 *
 * The FAQ describes what the product does: cancelling the training is the Stripe page reached from the
 * profile, a lead is stored before it is e-mailed, and so on.
 */
// `{{company.…}}` is filled from the company file's live revision when the page is rendered.

export interface Testimonial {
	quote: string;
	name: string;
	role: string;
	/** Shipped as an example: the page marks it as such. */
	example?: boolean;
}

export const figures = {
	/** The starting price of a showcase site, excluding VAT. */
	siteFromPriceHt: '1 900 €',
	/** From the signed quote to the site online. */
	deliveryWeeks: 'quatre à six semaines',
	/** The mock-up after the audit. */
	mockupWeeks: 'deux semaines',
	/** Answer to a candidature. */
	candidatureAnswer: 'une semaine'
} as const;

export const services = [
	{
		key: 'service_1',
		title: 'Un site vitrine qui inspire confiance',
		text: 'Vos chantiers en photos, vos avis clients, vos certifications : un site rapide, clair sur mobile, que vous mettez à jour vous-même.'
	},
	{
		key: 'service_2',
		title: 'Des demandes de devis complètes',
		text: 'Des formulaires pensés pour votre métier : type de travaux, commune, délai. Chaque demande est enregistrée avant d’être envoyée par e-mail : aucune ne se perd.'
	},
	{
		key: 'service_3',
		title: 'Visible dans votre secteur',
		text: 'Fiche d’établissement, pages par commune, avis : nous travaillons le référencement local qui vous rend visible près de chez vous.'
	}
] as const;

export const steps = [
	{
		title: 'Audit offert',
		text: 'Nous analysons votre présence en ligne et celle de vos concurrents, et vous remettons un plan d’action.'
	},
	{
		title: 'Maquette',
		text: `Sous ${figures.mockupWeeks}, une maquette de votre site avec vos textes et vos photos de chantier.`
	},
	{
		title: 'Mise en ligne',
		text: 'Nom de domaine, hébergement, sécurité, mentions légales : nous nous occupons de tout.'
	},
	{
		title: 'Suivi',
		text: 'Chaque mois, un point sur les demandes reçues par votre site et sur ce qui peut être amélioré.'
	}
] as const;

export const testimonials: Testimonial[] = [
	{
		quote:
			'Je mets mes chantiers en ligne depuis mon téléphone, le soir, en quelques minutes. Les demandes arrivent avec la commune et le type de travaux : je sais qui rappeler en premier.',
		name: 'Exemple — un menuisier',
		role: 'Témoignage à remplacer',
		example: true
	},
	{
		quote:
			'La formation m’a appris à photographier mes réalisations et à répondre aux avis. Des modules courts, que je suis entre deux rendez-vous.',
		name: 'Exemple — une carreleuse',
		role: 'Témoignage à remplacer',
		example: true
	},
	{
		quote: 'Un interlocuteur qui parle notre langue, un site que je comprends et qui m’appartient.',
		name: 'Exemple — un couvreur',
		role: 'Témoignage à remplacer',
		example: true
	}
];

export const faq = [
	{
		q: 'Combien coûte un site ?',
		a: `Un site vitrine démarre à ${figures.siteFromPriceHt} HT, hébergement et maintenance de la première année compris. Le devis est gratuit et détaillé.`
	},
	{
		q: 'En combien de temps mon site est-il en ligne ?',
		a: `Comptez ${figures.deliveryWeeks}, selon la rapidité avec laquelle nous recevons vos photos et vos textes.`
	},
	{
		q: 'Qui est propriétaire du site et du nom de domaine ?',
		a: 'Vous. Le nom de domaine est enregistré à votre nom, et les contenus vous sont cédés au paiement.'
	},
	{
		q: 'Comment se passe la formation ?',
		a: `En ligne, à votre rythme : des modules courts, que vous cochez au fil de votre progression. L’accès se fait sur candidature ; la réponse arrive sous ${figures.candidatureAnswer}.`
	},
	{
		q: 'Puis-je arrêter l’abonnement à la formation ?',
		a: `Oui, à tout moment et sans frais, depuis votre profil (page sécurisée de notre prestataire de paiement) ou en écrivant à {{company.email}}. L’accès reste ouvert jusqu’à la fin de la période payée.`
	}
] as const;
