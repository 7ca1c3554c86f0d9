/**
 * What each public page receives of its entry (issue « Content, part 1 »): the live fields (or, for an admin's
 * preview, the draft), placeholders filled, and for the demo sites the whole site object their components take.
 * Client-safe types and builders; the server's content domain fills them (src/lib/server/content/live.ts).
 */
import type { EntryFields, LegalPageId, PageId } from './model';
import { internationalPhone } from './phone';

export interface TitledText {
	title: string;
	text: string;
}

export interface Testimonial {
	quote: string;
	name: string;
	role: string;
	/** Shipped as an example: the page marks it as such. */
	example?: boolean;
}

export interface PageBase {
	title: string;
	description: string;
	/** The body, rendered (Markdown, raw HTML off, safe links). */
	html: string;
}

/**
 * A page's fields as its route receives them (`content.page(id)`): placeholders filled, `body` rendered as `html`.
 * Read from the model's specs (`EntryFields`), never written twice: a field renamed in model.ts is a type error in
 * every component that still reads the old name (tests/static/content-model.test.ts plants one).
 */
export type Shown<F> = F & { html: string };
export type PageContents = { [Id in PageId]: Shown<EntryFields<Id>> };
export type HomeContent = PageContents['home'];
export type FormPageContent = PageContents['contact'];
export type LegalContent = PageContents[LegalPageId];

export interface DemoSite {
	path: '/macon' | '/paysagiste';
	prefix: 'macon' | 'paysagiste';
	name: string;
	trade: string;
	city: string;
	postalCode: string;
	street: string;
	phone: string;
	phoneHref: string;
	email: string;
	title: string;
	description: string;
	hero: { title: string; lead: string };
	services: TitledText[];
	about: { title: string; html: string };
	testimonials: Testimonial[];
	areas: string[];
	/** Stays within the demo: its own quote form or its own contact details, never the agency's forms. */
	cta: { title: string; text: string; href: string; label: string };
	schemaType: string;
	priceRange: string;
}

/** What a demo's entry does not hold: where it lives and what kind of business schema.org calls it. */
const DEMO_FIXED = {
	macon: {
		path: '/macon',
		prefix: 'macon',
		ctaHref: '/devis',
		schemaType: 'GeneralContractor',
		priceRange: '€€'
	},
	paysagiste: {
		path: '/paysagiste',
		prefix: 'paysagiste',
		ctaHref: '#contact',
		schemaType: 'LocalBusiness',
		priceRange: '€€'
	}
} as const;

export type DemoId = keyof typeof DEMO_FIXED;

/** A demo site from its entry's fields (placeholders filled, body rendered to `html`). */
export function demoSite(id: DemoId, fields: Record<string, unknown>, html: string): DemoSite {
	const fixed = DEMO_FIXED[id];
	const text = (key: string) => String(fields[key] ?? '');
	return {
		path: fixed.path,
		prefix: fixed.prefix,
		name: text('name'),
		trade: text('trade'),
		city: text('city'),
		postalCode: text('postalCode'),
		street: text('street'),
		phone: text('phone'),
		phoneHref: internationalPhone(text('phone')) ?? text('phoneHref'),
		email: text('email'),
		title: text('title'),
		description: text('description'),
		hero: { title: text('heroTitle'), lead: text('heroLead') },
		services: (fields.services as TitledText[] | undefined) ?? [],
		about: { title: text('aboutTitle'), html },
		testimonials: (fields.testimonials as Testimonial[] | undefined) ?? [],
		areas: (fields.areas as string[] | undefined) ?? [],
		cta: { title: text('ctaTitle'), text: text('ctaText'), href: fixed.ctaHref, label: text('ctaLabel') },
		schemaType: fixed.schemaType,
		priceRange: fixed.priceRange
	};
}

/** An article's cover as pages lay it out: a 16:9 box (the image proxy's cover slot), the photo cropped to it. */
export const COVER_WIDTH = 1600;
export const COVER_HEIGHT = 900;
/** The cover's width on the page: the reading column (40rem) on a wide screen, almost the screen on a phone. */
export const COVER_SIZES = '(min-width: 44rem) 40rem, 92vw';
/**
 * The cover's width in the blog's list: a thumbnail beside each title (7.5rem on a phone, 12rem from 40rem up). The
 * list is for choosing; the article shows the cover large. A phone is sent the 480 px variant of each cover, and the
 * page's largest content is its words, painted with the HTML.
 */
export const THUMBNAIL_SIZES = '(min-width: 40rem) 12rem, 7.5rem';

export interface ArticleCard {
	path: string;
	title: string;
	description: string;
	/** First publication, ISO. */
	publishedAt: string;
	/** Last published change, ISO. */
	updatedAt: string;
	cover: { src: string; srcset: string; alt: string } | null;
}

export interface ArticleContent extends ArticleCard {
	html: string;
}
