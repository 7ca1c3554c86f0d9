/**
 * The JSON-LD of showcase pages (schema.org), built from the company file and the content index: the business
 * (GeneralContractor, a LocalBusiness) on home and contact, a Service on service pages, the area served on
 * local-area pages, an Article on articles, and a BreadcrumbList on every page below home. Pure: tests call it.
 */
import type { Business } from '$content/showcase/business';
import type { Entry } from './content';

export type JsonLd = Record<string, unknown>;

export interface Crumb {
	name: string;
	path: string;
}

const absolute = (origin: URL, path: string) => new URL(path, origin).href;
const businessId = (origin: URL) => absolute(origin, '/#entreprise');

export function localBusiness(
	origin: URL,
	business: Business,
	areas: readonly Entry<'secteurs'>[],
	image?: string
): JsonLd {
	return {
		'@type': 'GeneralContractor',
		'@id': businessId(origin),
		name: business.name,
		legalName: business.legalName,
		url: absolute(origin, '/'),
		telephone: business.phoneHref,
		email: business.email,
		foundingDate: String(business.founded),
		...(image ? { image } : {}),
		address: {
			'@type': 'PostalAddress',
			streetAddress: business.address.street,
			postalCode: business.address.postalCode,
			addressLocality: business.address.city,
			addressRegion: business.address.region,
			addressCountry: business.address.country
		},
		geo: { '@type': 'GeoCoordinates', ...business.geo },
		areaServed: [
			...areas.map((a) => ({ '@type': 'City', name: a.meta.town })),
			{
				'@type': 'GeoCircle',
				geoMidpoint: { '@type': 'GeoCoordinates', ...business.geo },
				geoRadius: String(business.serviceRadiusKm * 1000)
			}
		],
		openingHoursSpecification: business.hours
			.filter((h) => h.opens && h.closes)
			.map((h) => ({
				'@type': 'OpeningHoursSpecification',
				dayOfWeek: `https://schema.org/${h.schema}`,
				opens: h.opens,
				closes: h.closes
			}))
	};
}

/** A reference to the business, for the `provider` and `publisher` of other nodes. */
const businessRef = (origin: URL, business: Business) => ({
	'@type': 'GeneralContractor',
	'@id': businessId(origin),
	name: business.name
});

export function service(origin: URL, business: Business, entry: Entry<'services'>): JsonLd {
	return {
		'@type': 'Service',
		name: entry.meta.name,
		serviceType: entry.meta.name,
		description: entry.meta.description,
		url: absolute(origin, entry.path),
		provider: businessRef(origin, business),
		areaServed: { '@type': 'AdministrativeArea', name: business.serviceArea }
	};
}

export function areaServed(origin: URL, business: Business, entry: Entry<'secteurs'>): JsonLd {
	return {
		'@type': 'Service',
		name: `Maçonnerie à ${entry.meta.town}`,
		serviceType: 'Maçonnerie',
		url: absolute(origin, entry.path),
		provider: businessRef(origin, business),
		areaServed: {
			'@type': 'City',
			name: entry.meta.town,
			address: { '@type': 'PostalAddress', postalCode: entry.meta.postalCode, addressCountry: 'FR' },
			geo: { '@type': 'GeoCoordinates', ...entry.meta.geo }
		}
	};
}

export function article(origin: URL, business: Business, entry: Entry<'blog'>, image?: string): JsonLd {
	return {
		'@type': 'Article',
		headline: entry.meta.title,
		description: entry.meta.description,
		datePublished: entry.meta.published,
		dateModified: entry.meta.updated,
		author: { '@type': 'Person', name: entry.meta.author },
		publisher: businessRef(origin, business),
		mainEntityOfPage: absolute(origin, entry.path),
		wordCount: entry.words,
		...(image ? { image } : {})
	};
}

export function breadcrumbs(origin: URL, trail: readonly Crumb[]): JsonLd {
	return {
		'@type': 'BreadcrumbList',
		itemListElement: trail.map((crumb, index) => ({
			'@type': 'ListItem',
			position: index + 1,
			name: crumb.name,
			item: absolute(origin, crumb.path)
		}))
	};
}

/** Several nodes in one script element. */
export const graph = (nodes: JsonLd[]): JsonLd => ({ '@context': 'https://schema.org', '@graph': nodes });
