import { describe, expect, it } from 'vitest';
import { seedFields } from '$content/agency/seed';
import { company } from '$lib/company';
import { typeset } from '$lib/typography';
import { LEGAL_PAGE_IDS, type LegalPageId } from '$lib/content/model';
import type { LegalContent } from '$lib/content/pages';
import { legalContent } from './legal';
import { shown } from './live';

// The seed is written in the model's shape (content.integration.test.ts checks it against the model).
const legalPage = (slug: LegalPageId) => legalContent(shown(seedFields()[slug]) as LegalContent);

describe("the agency's legal pages (their revision 1, from src/content/agency/legal/)", () => {
	it('are filled from the company file with no placeholder left', () => {
		for (const slug of LEGAL_PAGE_IDS) {
			const page = legalPage(slug);
			expect(page.html).toContain(company.legalName);
			expect(page.html).not.toMatch(/\{\{|\}\}/);
			expect(page.meta.description).not.toMatch(/\{\{|\}\}/);
			expect(page.meta.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
			expect(page.html.match(/<h2/g)?.length).toBeGreaterThanOrEqual(5);
		}
		const notice = legalPage('mentions-legales').html;
		expect(notice).toContain(`${company.publicationDirectorTitle}\u202F: ${company.publicationDirector}`);
		expect(notice).toContain(typeset(company.siret));
		expect(notice).toContain(`href="mailto:${company.email}"`);
		expect(notice).toContain(company.host.name);
	});

	it('are typeset: elisions before the company name, no-break spaces before colons, in the description too', () => {
		// "de Atelier Numérique SAS" in the file.
		expect(legalPage('mentions-legales').html).toContain('exclusive d’Atelier Numérique SAS');
		expect(legalPage('confidentialite').meta.description).toContain('personnelles\u202F: finalités');
	});

	it("gives the privacy table's cells their column's name, for the phone's cards", () => {
		const privacy = legalPage('confidentialite').html;
		expect(privacy).toContain('<td data-label="Finalité">');
		expect(privacy).toContain('<td data-label="Base légale">');
	});

	it('leaves a placeholder that names nothing as typed (publishing refuses it: checks.test.ts)', () => {
		const page = legalContent(
			shown({ ...seedFields().cgv, body: 'Société {{company.nope}} — {{company.legalName}}' }) as LegalContent
		);
		expect(page.html).toContain('{{company.nope}}');
		expect(page.html).toContain(company.legalName);
	});
});
