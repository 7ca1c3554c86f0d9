/**
 * Whom an e-mail comes from, as its reader sees it: the brand in the band, the signature, the phone number to
 * call back and the footer line. The platform writes as the agency (its company file, $lib/company); showcase mode
 * as the masonry business (src/content/showcase/business.ts), so that nothing it sends names the agency.
 */
import { company, companyAddressLine } from '$lib/company';
import { business, businessAddressLine } from '$content/showcase/business';

export interface MailSender {
	brand: string;
	phone: string;
	phoneHref: string;
	/** The legal name and address, under every message. */
	footer: string;
}

/** Getters: the company file's live revision at the moment the message is written. */
export const agencySender: MailSender = {
	get brand() {
		return company.brand;
	},
	get phone() {
		return company.phone;
	},
	get phoneHref() {
		return company.phoneHref;
	},
	get footer() {
		return `${company.legalName} — ${companyAddressLine()}`;
	}
};

export const businessSender: MailSender = {
	brand: business.name,
	phone: business.phone,
	phoneHref: business.phoneHref,
	footer: `${business.legalName} — ${businessAddressLine}`
};

/**
 * A demo business of the agency's site (its quote form is the maçon demo's): the visitor wrote to that fictional
 * business, so its name signs the reply, and the footer says whose demo it is.
 */
export const demoSender = (site: { name: string; phone: string; phoneHref: string }): MailSender => ({
	brand: site.name,
	phone: site.phone,
	phoneHref: site.phoneHref,
	footer: `Site de démonstration réalisé par ${company.brand} (${company.legalName}, ${companyAddressLine()}) — ${site.name} est une entreprise fictive.`
});
