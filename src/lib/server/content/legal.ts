/**
 * The agency's legal pages (mentions légales, CGV, confidentialité): Markdown under src/content/agency/legal/,
 * one file a page named after its path, filled from the company file (src/content/agency/company.ts). Read once
 * at start-up and bundled by Vite; a file that does not say what the schema asks fails the tests, not a visitor.
 */
import { z } from 'zod';
import { company } from '$content/agency/company';
import { typeset } from '$lib/typography';
import { parseContentFile, type ParsedFile } from './files';

const files = import.meta.glob('/src/content/agency/legal/*.md', {
	eager: true,
	query: '?raw',
	import: 'default'
}) as Record<string, string>;

const legalSchema = z.object({
	title: z.string().min(5).max(70),
	description: z.string().min(50).max(170),
	/** Shown as "Dernière mise à jour" (what the law asks a visitor to be able to check). */
	updated: z.iso.date()
});

export type LegalPage = ParsedFile<z.output<typeof legalSchema>>;

export function buildLegalIndex(sources: Record<string, string>): Map<string, LegalPage> {
	const pages = new Map<string, LegalPage>();
	for (const [file, raw] of Object.entries(sources)) {
		const page = parseContentFile(file, raw, legalSchema, { company });
		// The body is typeset as it renders; the title and description (front matter) are typeset here.
		page.meta = {
			...page.meta,
			title: typeset(page.meta.title),
			description: typeset(page.meta.description)
		};
		pages.set(page.slug, page);
	}
	return pages;
}

export const legalPages = buildLegalIndex(files);
