/**
 * The masonry business of showcase mode (SITE_MODE=showcase), in one place: its name, address, phone, SIRET,
 * hours and service area. Every showcase page, its JSON-LD, the footer, the legal pages (through `{{…}}`
 * placeholders in src/content/showcase/**.md) and the e-mails sent in its name read this file. A business that
 * deploys the showcase edits it, then the Markdown files beside it. Client-safe: nothing here is secret.
 *
 * The phone number is in the range ARCEP keeps for fiction (04 65 71 xx xx), the SIRET is made up: replace both.
 */
import { cm2cMediator, ovhHost } from '../providers';
export const business = {
	name: 'Maçonnerie Delorme',
	legalName: 'Maçonnerie Delorme SARL',
	legalForm: 'société à responsabilité limitée',
	shareCapital: '20 000 €',
	registration: 'RCS Vienne 852 963 741',
	siren: '852 963 741',
	siret: '852 963 741 00018',
	vatNumber: 'FR58 852 963 741',
	ape: '43.99C — Travaux de maçonnerie générale et gros œuvre de bâtiment',
	founded: 2004,
	manager: 'Julien Delorme',
	managerRole: 'gérant',
	slogan: 'Maçon en Nord-Isère depuis 2004',
	address: {
		street: '27 chemin des Tuileries',
		postalCode: '38300',
		city: 'Bourgoin-Jallieu',
		region: 'Auvergne-Rhône-Alpes',
		country: 'FR'
	},
	geo: { latitude: 45.5858, longitude: 5.2737 },
	phone: '04 65 71 38 38',
	phoneHref: '+33465713838',
	email: 'contact@maconnerie-delorme.example',
	/** Opening hours, Monday first; `null`: closed. Times are 24-hour "HH:MM". */
	hours: [
		{ day: 'Lundi', schema: 'Monday', opens: '07:30', closes: '18:00' },
		{ day: 'Mardi', schema: 'Tuesday', opens: '07:30', closes: '18:00' },
		{ day: 'Mercredi', schema: 'Wednesday', opens: '07:30', closes: '18:00' },
		{ day: 'Jeudi', schema: 'Thursday', opens: '07:30', closes: '18:00' },
		{ day: 'Vendredi', schema: 'Friday', opens: '07:30', closes: '17:00' },
		{ day: 'Samedi', schema: 'Saturday', opens: null, closes: null },
		{ day: 'Dimanche', schema: 'Sunday', opens: null, closes: null }
	],
	/** Around the workshop: the towns with a page of their own are in src/content/showcase/secteurs/. */
	serviceRadiusKm: 30,
	serviceArea: 'Nord-Isère : Bourgoin-Jallieu et 30 km alentour',
	insurance: {
		name: 'décennale et responsabilité civile professionnelle',
		insurer: 'SMABTP, 8 rue Louis Armand, 75015 Paris',
		coverage: 'France métropolitaine'
	},
	publicationDirector: 'Julien Delorme, gérant',
	host: ovhHost,
	mediator: cm2cMediator,
	privacyEmail: 'donnees@maconnerie-delorme.example',
	/** The map of the contact page (loaded only after consent): OpenStreetMap's embed around the workshop. */
	map: {
		embedUrl:
			'https://www.openstreetmap.org/export/embed.html?bbox=5.2537%2C45.5758%2C5.2937%2C45.5958&layer=mapnik&marker=45.5858%2C5.2737',
		linkUrl: 'https://www.openstreetmap.org/?mlat=45.5858&mlon=5.2737#map=15/45.5858/5.2737'
	}
} as const;

export type Business = typeof business;

export const businessAddressLine = `${business.address.street}, ${business.address.postalCode} ${business.address.city}`;

/** "Du lundi au jeudi de 7 h 30 à 18 h" style lines, grouped by identical hours. */
export function openingHoursLines(hours: Business['hours'] = business.hours): string[] {
	const time = (t: string) => t.replace(/^0/, '').replace(':00', ' h').replace(':', ' h ');
	const groups: { from: string; to: string; text: string }[] = [];
	for (const h of hours) {
		const text = h.opens && h.closes ? `de ${time(h.opens)} à ${time(h.closes)}` : 'fermé';
		const last = groups.at(-1);
		if (last && last.text === text) last.to = h.day;
		else groups.push({ from: h.day, to: h.day, text });
	}
	return groups.map((g) =>
		g.from === g.to
			? `${g.from} : ${g.text}`
			: `Du ${g.from.toLowerCase()} au ${g.to.toLowerCase()} : ${g.text}`
	);
}
