/**
 * Revision 1 of every entry (issue « Content, part 1 »): what the site said before its words moved into the
 * database, built from the files beside this one. Read once, when an installation first starts this version (the
 * content domain inserts what is missing); after that the admin edits the entries and nothing reads these files.
 * `{{company.…}}` stays a placeholder: it is filled from the company file's live revision at render.
 */
import { parse as parseYaml } from 'yaml';
import type { FixedEntryId, Fields } from '$lib/content/model';
import { companySeed } from './company';
import { maconDemo, paysagisteDemo, type DemoSeed } from './demos';
import { faq, services, steps, testimonials } from './home';

const legalFiles = import.meta.glob('/src/content/agency/legal/*.md', {
	eager: true,
	query: '?raw',
	import: 'default'
}) as Record<string, string>;

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/;

/** A legal page's front matter and its Markdown body, placeholders kept. */
function legalSeed(slug: string): Fields {
	const raw = legalFiles[`/src/content/agency/legal/${slug}.md`];
	const match = raw && FRONT_MATTER.exec(raw.replace(/\r\n/g, '\n'));
	if (!match) throw new Error(`seed: src/content/agency/legal/${slug}.md has no front matter`);
	const meta = parseYaml(match[1]!) as Record<string, string>;
	return { title: meta.title, description: meta.description, body: match[2]!, updated: meta.updated };
}

function demoSeed(site: DemoSeed): Fields {
	return {
		title: site.title,
		description: site.description,
		name: site.name,
		trade: site.trade,
		street: site.street,
		postalCode: site.postalCode,
		city: site.city,
		phone: site.phone,
		email: site.email,
		heroTitle: site.hero.title,
		heroLead: site.hero.lead,
		services: site.services.map(({ title, text }) => ({ title, text })),
		aboutTitle: site.about.title,
		body: site.about.text.join('\n\n'),
		testimonials: site.testimonials.map(({ quote, name, role }) => ({ quote, name, role })),
		areas: [...site.areas],
		ctaTitle: site.cta.title,
		ctaText: site.cta.text,
		ctaLabel: site.cta.label
	};
}

export function seedFields(): Record<FixedEntryId, Fields> {
	return {
		home: {
			title: '{{company.brand}} — sites web et formation pour les artisans',
			description:
				'Atelier crée des sites qui apportent des clients aux artisans du bâtiment et du paysage, et les forme à trouver leurs chantiers en ligne. Audit gratuit.',
			heroTitle: 'Des sites qui font sonner le téléphone des artisans',
			heroLead:
				'Nous créons des sites clairs et rapides pour les métiers du bâtiment et du paysage, et nous formons les artisans à trouver leurs clients en ligne — sans y passer leurs soirées.',
			services: services.map(({ title, text }) => ({ title, text })),
			steps: steps.map(({ title, text }) => ({ title, text })),
			body: 'Développeurs, designers et anciens artisans : nous connaissons vos contraintes de chantier et nous parlons votre langue. Chaque client a un interlocuteur attitré, joignable au {{company.phone}}.',
			testimonials: testimonials.map(({ quote, name, role, example }) => ({
				quote,
				name,
				role,
				example: example ?? false
			})),
			faq: faq.map(({ q, a }) => ({ q, a }))
		},
		macon: demoSeed(maconDemo),
		paysagiste: demoSeed(paysagisteDemo),
		candidature: {
			title: 'Candidater au {{company.training.name}}',
			description:
				'Candidatez au {{company.training.name}} : quatre étapes, une réponse {{company.training.replyDelay}}.',
			body: ''
		},
		contact: {
			title: 'Demander un audit gratuit',
			description:
				'Demandez l’audit gratuit de votre présence en ligne : Atelier vous répond sous 48 heures ouvrées.',
			lead: 'Parlez-nous de votre activité : nous analysons votre présence en ligne et vous proposons un rendez-vous de 30 minutes pour vous présenter nos recommandations.',
			body: ''
		},
		devis: {
			title: 'Demande de devis maçonnerie',
			description:
				'Le formulaire de devis du site de démonstration de Maçonnerie Girard & Fils, maçon fictif : ce que reçoit un artisan équipé par Atelier.',
			lead: 'Murs, façades, terrasses, ouvertures : décrivez vos travaux, nous vous rappelons sous 48 heures pour une visite et un devis gratuit.',
			body: ''
		},
		'mentions-legales': legalSeed('mentions-legales'),
		cgv: legalSeed('cgv'),
		confidentialite: legalSeed('confidentialite'),
		company: companyFields()
	};
}

/** The company file as it is edited: its number once (the international form is derived, content/phone.ts). */
function companyFields(): Fields {
	const { phoneHref: _derived, ...fields } = structuredClone(companySeed);
	return fields;
}
