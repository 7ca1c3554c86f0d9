import type { DemoSite } from '$lib/content/pages';

/**
 * The two demo sites: fictional businesses that show what Atelier builds for tradespeople. The seed of their
 * pages' first revision (src/content/agency/seed.ts); `demoSite` rebuilds a page's whole site from its live
 * fields and the parts that never change (its path, image prefix, schema.org type).
 */

/**
 * A demo's words, as its page's revision 1 takes them; what never changes (its address, image prefix, schema.org
 * type, the call to action's target) is `demoSite`'s, in $lib/content/pages.
 */
export type DemoSeed = Omit<DemoSite, 'path' | 'prefix' | 'schemaType' | 'priceRange' | 'about' | 'cta'> & {
	about: { title: string; text: string[] };
	cta: Omit<DemoSite['cta'], 'href'>;
};

export const maconDemo: DemoSeed = {
	name: 'Maçonnerie Girard & Fils',
	trade: 'Maçon',
	city: 'Villefranche-sur-Saône',
	postalCode: '69400',
	street: '8 chemin des Carrières',
	phone: '04 74 00 12 34',
	phoneHref: '+33474001234',
	email: 'contact@maconnerie-girard.example',
	title: 'Maçonnerie Girard & Fils — maçon à Villefranche-sur-Saône',
	description:
		'Murs en pierre, façades, terrasses et ouvertures : Maçonnerie Girard & Fils construit et rénove dans le Beaujolais depuis 1987. Devis gratuit sous 48 h.',
	hero: {
		title: 'Votre maçon dans le Beaujolais depuis 1987',
		lead: 'Construction, rénovation de pierre et terrasses : un travail soigné, des délais tenus, un interlocuteur unique du devis à la réception du chantier.'
	},
	services: [
		{
			title: 'Murs et murets en pierre',
			text: 'Pierre dorée, pierre sèche ou moellons : construction et restauration dans le respect du bâti ancien.'
		},
		{
			title: 'Façades et enduits',
			text: 'Ravalement, enduits à la chaux, rejointoiement : votre façade protégée et embellie pour des décennies.'
		},
		{
			title: 'Terrasses et dallages',
			text: 'Dalles béton, pierre naturelle, escaliers extérieurs : des terrasses durables, drainées dans les règles.'
		},
		{
			title: 'Ouvertures et extensions',
			text: 'Création de portes et baies, reprises en sous-œuvre, extensions : nous gérons les calculs et les démarches.'
		}
	],
	about: {
		title: 'Une entreprise familiale, trois générations de maçons',
		text: [
			'Fondée par Bernard Girard, l’entreprise est aujourd’hui menée par ses fils Julien et Thomas, entourés de six compagnons formés à la maison.',
			'Assurés en garantie décennale, nous intervenons chez les particuliers comme pour les collectivités, et nous nettoyons le chantier chaque soir.'
		]
	},
	testimonials: [
		{
			quote:
				'Mur de clôture en pierre dorée refait à l’identique, le résultat est superbe et le chantier était impeccable.',
			name: 'Claire M.',
			role: 'Anse'
		},
		{
			quote: 'Devis clair, délai respecté au jour près pour notre terrasse. On recommande sans hésiter.',
			name: 'Patrick et Sylvie D.',
			role: 'Gleizé'
		},
		{
			quote: 'Ils ont ouvert un mur porteur dans notre longère avec un vrai sens du conseil.',
			name: 'Hugo R.',
			role: 'Villefranche-sur-Saône'
		}
	],
	areas: [
		'Villefranche-sur-Saône',
		'Gleizé',
		'Anse',
		'Limas',
		'Arnas',
		'Belleville-en-Beaujolais',
		'Le Bois-d’Oingt',
		'Trévoux'
	],
	cta: {
		title: 'Un projet de maçonnerie ?',
		text: 'Décrivez-nous vos travaux : nous vous rappelons sous 48 h pour une visite et un devis gratuit.',
		label: 'Demander un devis gratuit'
	}
};

export const paysagisteDemo: DemoSeed = {
	name: 'Les Jardins de Margaux',
	trade: 'Paysagiste',
	city: 'Annecy',
	postalCode: '74000',
	street: '21 route des Vergers',
	phone: '04 50 00 56 78',
	phoneHref: '+33450005678',
	email: 'bonjour@jardins-margaux.example',
	title: 'Les Jardins de Margaux — paysagiste à Annecy',
	description:
		'Création et entretien de jardins, terrasses bois et arrosage autour d’Annecy. Des jardins vivants, sobres en eau, pensés pour durer.',
	hero: {
		title: 'Des jardins vivants autour du lac d’Annecy',
		lead: 'Création, entretien et aménagements extérieurs : Margaux et son équipe dessinent des jardins beaux toute l’année et économes en eau.'
	},
	services: [
		{
			title: 'Création de jardins',
			text: 'Plan d’aménagement, choix de végétaux adaptés au climat savoyard, plantation et suivi de reprise.'
		},
		{
			title: 'Entretien à l’année',
			text: 'Tonte, taille, désherbage sans chimie : un contrat souple, éligible au crédit d’impôt services à la personne.'
		},
		{
			title: 'Terrasses et allées',
			text: 'Bois, pierre ou gravier stabilisé : des espaces de vie extérieurs qui prolongent la maison.'
		},
		{
			title: 'Arrosage et récupération d’eau',
			text: 'Goutte-à-goutte, programmateurs et cuves : arroser juste ce qu’il faut, au pied des plantes.'
		}
	],
	about: {
		title: 'Margaux, paysagiste diplômée, et son équipe',
		text: [
			'Après dix ans dans un grand bureau d’études, Margaux a créé son entreprise pour revenir au terrain et au conseil de proximité.',
			'Nous privilégions les pépiniéristes de la région et les plantes locales, qui demandent moins d’eau et accueillent la biodiversité.'
		]
	},
	testimonials: [
		{
			quote:
				'Notre jardin en pente est devenu notre pièce préférée de la maison. Merci pour les conseils de plantes !',
			name: 'Élodie et Marc',
			role: 'Sevrier'
		},
		{
			quote: 'Entretien impeccable depuis trois ans, toujours ponctuels et de bon conseil.',
			name: 'Jean-Pierre L.',
			role: 'Annecy-le-Vieux'
		},
		{
			quote: 'La terrasse en mélèze est magnifique et a été posée en une semaine.',
			name: 'Sophie T.',
			role: 'Talloires'
		}
	],
	areas: [
		'Annecy',
		'Annecy-le-Vieux',
		'Seynod',
		'Sevrier',
		'Talloires',
		'Veyrier-du-Lac',
		'Rumilly',
		'Faverges'
	],
	cta: {
		title: 'Parlons de votre jardin',
		text: 'Une visite conseil gratuite pour imaginer ensemble votre extérieur et chiffrer le projet.',
		label: 'Prendre contact'
	}
};
