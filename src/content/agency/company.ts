/**
 * The company file's first revision (issue « Content, part 1 »): what a new installation says of the company
 * until the admin edits « Fiche de l’entreprise ». Nothing reads it at run time but the seed and the default of
 * `$lib/company` (the live revision, which every page, e-mail and document reads). Client-safe (no secrets).
 */
import { cm2cMediator, ovhHost } from '../providers';
export const companySeed = {
	brand: 'Atelier',
	tagline: 'Sites web et formation pour les artisans',
	legalName: 'Atelier Numérique SAS',
	legalForm: 'société par actions simplifiée',
	shareCapital: '10 000 €',
	registration: 'RCS Lyon 912 345 678',
	siren: '912 345 678',
	siret: '912 345 678 00015',
	vatNumber: 'FR27 912 345 678',
	/** Déclaration d'activité de prestataire de formation (article L. 6351-1 du Code du travail). */
	trainingDeclaration: '84 69 12345 69 auprès du préfet de région Auvergne-Rhône-Alpes',
	address: {
		street: '12 rue de la Charité',
		postalCode: '69002',
		city: 'Lyon',
		country: 'France'
	},
	email: 'contact@atelier-numerique.fr',
	privacyEmail: 'rgpd@atelier-numerique.fr',
	phone: '04 78 00 00 00',
	phoneHref: '+33478000000',
	publicationDirector: 'Camille Martin, présidente',
	/** Agrees with the person: "Directrice" for a woman, "Directeur" for a man. */
	publicationDirectorTitle: 'Directrice de la publication',
	host: ovhHost,
	mediator: cm2cMediator,
	training: {
		name: 'Programme Artisan en ligne',
		/** The one promise of when a candidate hears back: every page and e-mail says it in these words. */
		replyDelay: 'sous 5 jours ouvrés',
		monthlyPriceTtc: '49 €'
	}
} as const;
