import { describe, expect, it } from 'vitest';
import { company } from '$content/agency/company';
import { typeset } from '$lib/typography';
import { NotFoundError } from '../errors';
import { legalPage } from '.';
import { buildLegalIndex } from './legal';

describe("the agency's legal pages", () => {
	it('are the three content files, each filled from the company file with no placeholder left', () => {
		for (const slug of ['mentions-legales', 'cgv', 'confidentialite']) {
			const page = legalPage(slug);
			expect(page.html).toContain(company.legalName);
			expect(page.html).not.toMatch(/\{\{|\}\}/);
			expect(page.meta.description).not.toMatch(/\{\{|\}\}/);
			expect(page.headings.length).toBeGreaterThanOrEqual(5);
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

	it('says which file and which field is wrong, and a page nobody wrote is a NotFoundError', () => {
		expect(() => buildLegalIndex({ '/x/cgv.md': '---\ntitle: CGV\n---\nTexte' })).toThrow(
			/\/x\/cgv\.md: .*title/
		);
		expect(() =>
			buildLegalIndex({
				'/x/cgv.md':
					'---\ntitle: Conditions générales\ndescription: Une description assez longue pour passer le schéma sans souci.\nupdated: 2026-11-22\n---\n{{company.nope}}'
			})
		).toThrow(/\/x\/cgv\.md: unknown placeholder \{\{company\.nope\}\}/);
		expect(() => legalPage('nulle-part')).toThrow(NotFoundError);
	});
});
